/**
 * The path every plain JSON operation beside chat takes (embeddings, rerank,
 * moderations) once its family parsed and validated it: key, model
 * allow-list, rate limits, quota hold, the
 * channels whose adapter serves the operation on that channel, failover
 * before any byte is sent, the answer, the settlement. A channel whose
 * server has the operation's own endpoint gets the client's body as it is
 * (pass-through, the answer's bytes kept); a computing upstream (the
 * simulator) gets the internal request and the family renders its answer.
 * Billed per input token (the upstream's count, else the gateway's).
 */
import type { Attempt } from '../core/attempt.js';
import type { GatewayError } from '../core/errors.js';
import { withFailover } from '../routing/failover.js';
import type { ClientKey } from '../http/auth.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, PlainOperation, UpstreamAdapter } from '../upstreams/types.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { RequestOutput } from './chat-output.js';
import { abortOnGone, admitted, failPlain, failoverOptions, routedFields } from './request-flow.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export interface PlainCodec<Request, Response> {
  /** The family name written to request logs. */
  readonly family: string;
  /** Which adapter part serves the family. */
  operation(adapter: UpstreamAdapter): PlainOperation<Request, Response> | undefined;
  render(response: Response, inputTokens: number): unknown;
  renderError(error: GatewayError, requestId: string): RenderedError;
  /** No price is no cost (moderations are free at OpenAI), rather than an unpriced model. */
  readonly freeUnlessPriced?: boolean;
  /** The refusal when no channel serves the request, where it says more than "no channel serves the model". */
  noChannel?(model: string): GatewayError | undefined;
}

export interface PlainCall<Request> {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  model: string;
  startedAt: number;
  request: Request;
  /** The client's body, for servers that take it as it is (absent: a dialect no server takes as it is). */
  body?: PassThroughRequest;
  /** The gateway's count of the input tokens, for upstreams that report none. */
  countInput(): number;
}

type Answer<Response> = { kind: 'pass'; result: EmbeddingPassThroughResult } | { kind: 'served'; response: Response & { inputTokens?: number } };

export async function servePlainOperation<Request, Response extends { inputTokens?: number }>(
  services: RequestServices,
  call: PlainCall<Request>,
  codec: PlainCodec<Request, Response>,
  output: RequestOutput,
): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  let target: { channel: { id: string }; upstreamModel: string } | undefined;
  let reported: number | undefined;
  let httpStatus: number;
  let error: GatewayError | undefined;
  let hold: QuotaHold | undefined;
  try {
    const admission = admitted(services, call.key, call.model);
    if (admission) await admission;
    const held = services.holdQuota(call.key, call.model, { inputBytes: call.body?.rawBody.byteLength ?? 0, outputTokens: 0 });
    if (held) hold = await held;
    const candidates = services.candidates(call.model, (adapter, channel) => codec.operation(adapter)?.offered(channel) === true);
    const refusal = candidates.length === 0 ? codec.noChannel?.(call.model) : undefined;
    if (refusal) throw refusal;
    const attempt = await withFailover(candidates, failoverOptions(services, call, attempts, abort.signal), async (next): Promise<Answer<Response>> => {
      const operation = codec.operation(services.adapter(next.channel.type))!;
      const upstreamCall = services.upstreamCall(next, call, abort.signal);
      if (operation.passThrough && call.body) return { kind: 'pass', result: await operation.passThrough(call.body, upstreamCall) };
      return { kind: 'served', response: await operation.serve!(call.request, upstreamCall) };
    });
    target = attempt.target;
    const answer = attempt.value;
    if (answer.kind === 'pass') {
      reported = answer.result.inputTokens;
      output.send(answer.result.status, answer.result.contentType, answer.result.body);
      httpStatus = answer.result.status;
    } else {
      reported = answer.response.inputTokens;
      output.send(200, 'application/json', JSON.stringify(codec.render(answer.response, reported ?? call.countInput())));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = failPlain(services, output, thrown, call, codec, codec.family);
    httpStatus = error.status;
  }
  services.settle({
    ...routedFields(call, codec.family, target, attempts),
    stream: false,
    httpStatus,
    error,
    reported: reported === undefined ? { outputTokens: 0 } : { inputTokens: reported, outputTokens: 0 },
    answered: error === undefined,
    estimateInput: () => call.countInput(),
    deliveredText: () => '',
    hold,
    freeUnlessPriced: codec.freeUnlessPriced,
  });
}
