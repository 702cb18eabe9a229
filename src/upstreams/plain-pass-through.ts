/**
 * A plain JSON operation (rerank, moderations) on a server that has its own
 * endpoint for it: the client's body passed as it is (model mapping aside),
 * the answer gathered whole within the channel's bound and kept byte for
 * byte, its input tokens read where the answer reports them. A protocol
 * builds one per operation its provider declares (`OperationAddress`).
 */
import type { Channel } from '../core/channel.js';
import { GatewayError } from '../core/errors.js';
import { callExchange } from './call-exchange.js';
import { nativeBody, whenHeaders, type Endpoint, type EndpointHeaders, type RequestHeaders } from './endpoint.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader } from './headers.js';
import { joinUrl } from './http.js';
import { limitsOf } from '../core/upstream-limits.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, PlainOperation, UpstreamCall } from './types.js';
import { requestWholeOk } from './whole-answer.js';

/** Where a channel's server takes an operation as it is, if the channel declares that it does. */
export interface OperationAddress {
  offered(channel: Channel): boolean;
  url(call: UpstreamCall): string;
  /**
   * The address of a path under it (`/generations` under `<base>/images`),
   * where that is not the two joined (Azure's dated routes end with their
   * `api-version` query).
   */
  at?(call: UpstreamCall, path: string): string;
}

/** The address of `path` under an operation's address. */
export function addressAt(address: OperationAddress, call: UpstreamCall, path: string): string {
  return address.at ? address.at(call, path) : joinUrl(address.url(call), path);
}

interface Sender {
  endpoint: Endpoint<unknown> & { headers(call: UpstreamCall): EndpointHeaders };
  address: OperationAddress;
  throwStatus: StatusThrower;
  inputTokens: (answer: object) => number | undefined;
  what: string;
}

/** The operation at `address`, served only by pass-through (the internal request is not sent). */
export function plainPassThrough<Request, Response>(sender: Sender): PlainOperation<Request, Response> {
  return {
    offered: (channel) => sender.address.offered(channel),
    passThrough: (request, call) => whenHeaders(sender.endpoint.headers(call), exchange, sender, request, call),
  };
}

async function exchange(headers: RequestHeaders, sender: Sender, request: PassThroughRequest, call: UpstreamCall): Promise<EmbeddingPassThroughResult> {
  const body = nativeBody(sender.endpoint, request, call);
  const res = await requestWholeOk(callExchange(call, sender.address.url(call), headers, body, sender.endpoint.throwStatus ?? sender.throwStatus), limitsOf(call).maxBodyBytes);
  let answer: unknown;
  try {
    answer = JSON.parse(res.bytes.toString('utf8'));
  } catch {
    throw new GatewayError('upstream_error', `upstream answered a ${sender.what} request with a body that is not JSON`, { retryable: true });
  }
  const inputTokens = typeof answer === 'object' && answer !== null ? sender.inputTokens(answer) : undefined;
  return { status: res.status, contentType: firstHeader(res.headers, 'content-type') ?? 'application/json', body: res.bytes, inputTokens };
}
