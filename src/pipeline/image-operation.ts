/**
 * The path of OpenAI's image operations (`/v1/images/generations`,
 * `/v1/images/edits`) once the family read the request, as the plain
 * operations take theirs (plain-operation.ts): key, model allow-list, rate
 * limits, a quota hold (the prompt's tokens, and the images at the model's
 * `perImage`), the channels whose adapter makes or edits images on that
 * channel, failover before any byte is sent, the answer, the settlement. A
 * channel whose server has OpenAI's image endpoints gets the client's body
 * as it is and its answer goes back byte for byte; a computing upstream
 * (the simulator) gets the internal request and the family renders its
 * images (bytes, or a URL the gateway serves); a streamed request (partial
 * images) goes only to servers that stream them, its events forwarded as
 * they come. Billed per image and per
 * token where the upstream reports tokens (gpt-image models), else the
 * prompt's tokens counted by the gateway.
 */
import type { Attempt } from '../core/attempt.js';
import { GatewayError } from '../core/errors.js';
import { countTokens } from '../core/tokens.js';
import { withFailover } from '../routing/failover.js';
import type { ClientKey } from '../http/auth.js';
import type { ImageBody, ImagePassThroughResult, ImageRequest, ImageResponse, ImageStreamResult } from '../dialects/openai-images/wire.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { ChatOutput } from './chat-output.js';
import { abortOnGone, admitted, failPlain, failoverOptions, routedFields } from './request-flow.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export interface ImageCodec {
  /** The family name written to request logs. */
  readonly family: string;
  /** The model's price per image, for the quota hold (0 when it has none). */
  perImageUsd(model: string): number;
  /** The answer a computing upstream's images make for the client (b64 or stored and linked). */
  render(response: ImageResponse, request: ImageRequest): Promise<unknown>;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

export interface ImageCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  startedAt: number;
  request: ImageRequest;
  /** The client's body, for servers that take it as it is. */
  body: ImageBody;
}

type Answer = { kind: 'pass'; result: ImagePassThroughResult } | { kind: 'served'; response: ImageResponse } | { kind: 'stream'; result: ImageStreamResult };

export async function serveImageOperation(services: RequestServices, call: ImageCall, codec: ImageCodec, output: ChatOutput): Promise<void> {
  const request = call.request;
  const routed = { ...call, model: request.model };
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  let target: { channel: { id: string }; upstreamModel: string } | undefined;
  let reported: { inputTokens?: number; outputTokens?: number } = {};
  let images = 0;
  let httpStatus: number;
  let error: GatewayError | undefined;
  let hold: QuotaHold | undefined;
  try {
    const admission = admitted(services, call.key, request.model);
    if (admission) await admission;
    const perUnitUsd = request.n * codec.perImageUsd(request.model);
    const held = services.holdQuota(call.key, request.model, { inputBytes: Buffer.byteLength(request.prompt), outputTokens: 0, perUnitUsd });
    if (held) hold = await held;
    const candidates = candidatesFor(services, request);
    const attempt = await withFailover(candidates, failoverOptions(services, routed, attempts, abort.signal), async (next): Promise<Answer> => {
      const operation = services.imageOperation(next.channel.type)!;
      const upstreamCall = services.upstreamCall(next, call, abort.signal);
      if (request.stream) return { kind: 'stream', result: await operation.passThroughStream!(request.operation, call.body, upstreamCall, request.n) };
      if (operation.passThrough) return { kind: 'pass', result: await operation.passThrough(request.operation, call.body, upstreamCall) };
      return { kind: 'served', response: await operation.serve!(request, upstreamCall) };
    });
    target = attempt.target;
    const answer = attempt.value;
    if (answer.kind === 'stream') {
      const streamed = await streamOut(answer.result, output, codec, call.requestId);
      reported = streamed.read;
      images = streamed.read.images;
      error = streamed.error;
      httpStatus = 200;
    } else if (answer.kind === 'pass') {
      reported = answer.result;
      images = answer.result.images;
      output.send(answer.result.status, answer.result.contentType, answer.result.body);
      httpStatus = answer.result.status;
    } else {
      reported = answer.response;
      images = answer.response.images.length;
      output.send(200, 'application/json', JSON.stringify(await codec.render(answer.response, request)));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = failPlain(services, output, thrown, call, codec, codec.family);
    httpStatus = error.status;
  }
  services.settle({
    ...routedFields(routed, codec.family, target, attempts),
    stream: request.stream,
    httpStatus,
    error,
    // An upstream that reports no tokens is billed per image alone: its output is no text to count.
    reported: { inputTokens: reported.inputTokens, outputTokens: reported.outputTokens ?? 0 },
    // A stream cut after some images is charged for those.
    answered: error === undefined || images > 0,
    firstByteAt: request.stream ? output.stream.firstByteAt : undefined,
    estimateInput: () => countTokens(request.prompt),
    deliveredText: () => '',
    hold,
    images,
  });
}

/**
 * The channels that may serve the request, decided before routing: an edit
 * asked of a model whose image channels only generate (image-task services)
 * and a stream asked of a model whose channels cannot stream are the
 * client's 400.
 */
function candidatesFor(services: RequestServices, request: ImageRequest) {
  const offered = services.imageCandidates(request.model, (operation, channel) => operation.offered(channel, request.operation));
  if (offered.length === 0 && request.operation === 'edits' && services.imageCandidates(request.model, (operation, channel) => operation.offered(channel, 'generations')).length > 0) {
    throw new GatewayError('invalid_request', `Invalid 'image': no channel of model ${request.model} edits images (its image-task channels only generate them); use /v1/images/generations`, {
      param: 'image',
    });
  }
  if (!request.stream) return offered;
  const streaming = offered.filter((channel) => services.imageOperation(channel.type)?.passThroughStream !== undefined);
  if (streaming.length === 0 && offered.length > 0) {
    throw new GatewayError('invalid_request', `Invalid 'stream': no channel of model ${request.model} streams partial images (only servers with OpenAI's image endpoints do); leave stream unset`, {
      param: 'stream',
    });
  }
  return streaming;
}

/** Writes a server's image events as they come; a stream that breaks ends with an `error` event in the OpenAI shape. */
async function streamOut(result: ImageStreamResult, output: ChatOutput, codec: ImageCodec, requestId: string): Promise<{ read: ReturnType<ImageStreamResult['read']>; error?: GatewayError }> {
  output.stream.start(200, result.contentType);
  let error: GatewayError | undefined;
  try {
    for await (const chunk of result.chunks) if (!(await output.stream.write(chunk))) break;
  } catch (thrown) {
    error = thrown instanceof GatewayError ? thrown : new GatewayError('upstream_error', 'the upstream stream failed', { retryable: true });
    await output.stream.write(`event: error\ndata: ${JSON.stringify({ type: 'error', ...(codec.renderError(error, requestId).body as object) })}\n\n`);
  }
  output.stream.end();
  return { read: result.read(), error };
}
