/**
 * OpenAI's image endpoints on a server that has them (`<base>/images/
 * generations`, `<base>/images/edits`): the client's body passed as it is
 * (JSON, or the edit's form with the same parts) naming the channel's
 * upstream model, the answer gathered whole within the channel's bound and
 * kept byte for byte, its images counted and its token usage read where the
 * answer reports it (gpt-image models); a streamed request's events go on as
 * they come (images-stream.ts). A protocol builds one where its provider
 * declares an address (`OperationAddress`).
 */
import { GatewayError } from '../core/errors.js';
import { limitsOf } from '../core/upstream-limits.js';
import { imagesAnswerUsage, type ImageBody, type ImageOperationName, type ImagePassThroughResult } from '../dialects/openai-images/wire.js';
import { callExchange } from './call-exchange.js';
import { whenHeaders, type Endpoint, type EndpointHeaders, type RequestHeaders } from './endpoint.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader } from './headers.js';
import { addressAt, type OperationAddress } from './plain-pass-through.js';
import type { ImageOperation, UpstreamCall } from './types.js';
import { requestWholeOk } from './whole-answer.js';
import { streamImages } from './images-stream.js';

interface Sender {
  endpoint: Endpoint<unknown> & { headers(call: UpstreamCall): EndpointHeaders };
  /** The images base (`<base>/images`): each operation's path is under it. */
  address: OperationAddress;
  throwStatus: StatusThrower;
}

export function imagesPassThrough(sender: Sender): ImageOperation {
  return {
    offered: (channel) => sender.address.offered(channel),
    passThrough: (operation, body, call) => whenHeaders(sender.endpoint.headers(call), exchange, sender, { operation, body }, call),
    passThroughStream: (operation, body, call, expected) => whenHeaders(sender.endpoint.headers(call), streamImages, sender, { operation, body, expected }, call),
  };
}

async function exchange(headers: RequestHeaders, sender: Sender, asked: { operation: ImageOperationName; body: ImageBody }, call: UpstreamCall): Promise<ImagePassThroughResult> {
  const url = addressAt(sender.address, call, `/${asked.operation}`);
  const body = asked.body.withModel(call.upstreamModel);
  const sent = { ...headers, 'content-type': body.contentType };
  const res = await requestWholeOk(callExchange(call, url, sent, body.bytes, sender.endpoint.throwStatus ?? sender.throwStatus), limitsOf(call).maxBodyBytes);
  let answer: unknown;
  try {
    answer = JSON.parse(res.bytes.toString('utf8'));
  } catch {
    throw new GatewayError('upstream_error', 'upstream answered an images request with a body that is not JSON', { retryable: true });
  }
  const read = typeof answer === 'object' && answer !== null ? imagesAnswerUsage(answer) : { images: 0 };
  return { status: res.status, contentType: firstHeader(res.headers, 'content-type') ?? 'application/json', body: res.bytes, ...read };
}
