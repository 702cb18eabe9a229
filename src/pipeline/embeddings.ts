/**
 * The path every embeddings request takes after its family parsed and
 * validated it. Routed like a chat request (key, model allow-list, quota,
 * rate limits, channels by priority and weight, failover before any byte is
 * sent) among the channels whose upstream type computes embeddings. An
 * OpenAI-dialect body reaches an upstream whose own endpoint is OpenAI's
 * untouched (pass-through); anywhere else the internal request is sent.
 * Requests only pass-through can serve (token-array inputs) are routed to
 * such channels only, decided before routing. Billed per input token.
 * It takes the narrow services and output the chat pipeline takes, and the
 * steps they share (request-flow.ts), not the gateway's context.
 */
import type { Attempt } from '../core/attempt.js';
import type { EmbeddingRequest, EmbeddingResponse } from '../core/embedding.js';
import { type GatewayError, invalidRequest } from '../core/errors.js';
import { withFailover } from '../routing/failover.js';
import type { ClientKey } from '../http/auth.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, UpstreamAdapter } from '../upstreams/types.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { RequestOutput } from './chat-output.js';
import { abortOnGone, admitted, failPlain, failoverOptions, routedFields } from './request-flow.js';
import type { RequestServices } from './services.js';
import type { RenderedError } from './types.js';

export interface EmbeddingCodec {
  /** The family name written to request logs. */
  readonly family: string;
  render(response: EmbeddingResponse, inputTokens: number): unknown;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

export interface EmbeddingCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  model: string;
  startedAt: number;
  request: EmbeddingRequest;
  /** The client's OpenAI-dialect body, for upstreams that take it as it is. */
  openAiBody?: PassThroughRequest;
  /** Only pass-through can serve this request (e.g. token-array inputs). */
  needsPassThrough?: boolean;
  /** The gateway's count of the input tokens, for upstreams that report none. */
  countInput(): number;
}

type Answer = { kind: 'pass'; result: EmbeddingPassThroughResult } | { kind: 'embedded'; response: EmbeddingResponse };

export async function serveEmbeddings(services: RequestServices, call: EmbeddingCall, codec: EmbeddingCodec, output: RequestOutput): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = abortOnGone(output);
  const passes = (adapter: UpstreamAdapter) => call.openAiBody !== undefined && adapter.embedPassThrough !== undefined;
  let target: { channel: { id: string }; upstreamModel: string } | undefined;
  let reported: number | undefined;
  let httpStatus: number;
  let error: GatewayError | undefined;
  let hold: QuotaHold | undefined;
  try {
    const admission = admitted(services, call.key, call.model);
    if (admission) await admission;
    const held = services.holdQuota(call.key, call.model, { inputBytes: call.openAiBody?.rawBody.byteLength ?? 0, outputTokens: 0 });
    if (held) hold = await held;
    const candidates = services.candidates(call.model, (adapter) => (call.needsPassThrough ? passes(adapter) : adapter.embed !== undefined || passes(adapter)));
    if (call.needsPassThrough && candidates.length === 0) throw tokenInputRefused(call.model);
    const attempt = await withFailover(candidates, failoverOptions(services, call, attempts, abort.signal), async (next): Promise<Answer> => {
      const adapter = services.adapter(next.channel.type);
      const upstreamCall = services.upstreamCall(next, call, abort.signal);
      if (passes(adapter)) return { kind: 'pass', result: await adapter.embedPassThrough!(call.openAiBody!, upstreamCall) };
      return { kind: 'embedded', response: await adapter.embed!(call.request, upstreamCall) };
    });
    target = attempt.target;
    const answer = attempt.value;
    if (answer.kind === 'pass') {
      reported = answer.result.inputTokens;
      output.send(answer.result.status, answer.result.contentType, answer.result.body);
      httpStatus = answer.result.status;
    } else {
      reported = answer.response.inputTokens;
      const inputTokens = reported ?? call.countInput();
      output.send(200, 'application/json', JSON.stringify(codec.render(answer.response, inputTokens)));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = failPlain(services, output, thrown, call, codec, 'embeddings');
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
  });
}

function tokenInputRefused(model: string): GatewayError {
  return invalidRequest(`input given as token ids needs a channel that takes OpenAI embedding requests as they are (type openai-chat); none serves model "${model}"; send the text instead`, 'input');
}
