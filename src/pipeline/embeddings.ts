/**
 * The path every embeddings request takes after its family parsed and
 * validated it. Routed like a chat request (key, model allow-list, quota,
 * rate limits, channels by priority and weight, failover before any byte is
 * sent) among the channels whose upstream type computes embeddings. An
 * OpenAI-dialect body reaches an upstream whose own endpoint is OpenAI's
 * untouched (pass-through); anywhere else the internal request is sent.
 * Requests only pass-through can serve (token-array inputs) are routed to
 * such channels only, decided before routing. Billed per input token.
 */
import { CallAbort } from '../core/call-signal.js';
import type { Attempt } from '../core/attempt.js';
import type { FastifyReply } from 'fastify';
import type { EmbeddingRequest, EmbeddingResponse } from '../core/embedding.js';
import { type GatewayError, invalidRequest, toGatewayError } from '../core/errors.js';
import { withFailover } from '../routing/failover.js';
import { orderCandidates } from '../routing/select.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import type { EmbeddingPassThroughResult, PassThroughRequest, UpstreamAdapter } from '../upstreams/types.js';
import { sendRenderedError } from './error-reply.js';
import { settle } from './settle.js';
import { holdQuota } from './quota-hold.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { RenderedError } from './types.js';
import { logUnexpectedAttempt, upstreamCallFor } from './upstream-call.js';

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

export async function serveEmbeddings(ctx: AppContext, call: EmbeddingCall, codec: EmbeddingCodec, reply: FastifyReply): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = new CallAbort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) abort.abort();
  });
  const passes = (adapter: UpstreamAdapter) => call.openAiBody !== undefined && adapter.embedPassThrough !== undefined;
  let target: { channel: { id: string }; upstreamModel: string } | undefined;
  let reported: number | undefined;
  let httpStatus: number;
  let error: GatewayError | undefined;
  let hold: QuotaHold | undefined;
  try {
    ctx.auth.authorize(call.key, call.model);
    await ctx.limits.admit(call.key.record);
    hold = await holdQuota(ctx, call.key, call.model, { inputBytes: call.openAiBody?.rawBody.byteLength ?? 0, outputTokens: 0 });
    const candidates = orderCandidates(ctx.channels.all(), call.model, {
      isHealthy: ctx.health.isHealthy,
      accepts: (channel) => {
        if (!ctx.adapters.has(channel.type)) return false;
        const adapter = ctx.adapters.get(channel.type);
        return call.needsPassThrough ? passes(adapter) : adapter.embed !== undefined || passes(adapter);
      },
    });
    if (call.needsPassThrough && candidates.length === 0) throw tokenInputRefused(call.model);
    const attempt = await withFailover(
      candidates,
      { model: call.model, maxAttempts: ctx.settings.maxAttempts, health: ctx.health, attempts, signal: abort.signal, onUnexpected: logUnexpectedAttempt(ctx.logger, call.requestId) },
      async (next): Promise<Answer> => {
        const adapter = ctx.adapters.get(next.channel.type);
        const upstreamCall = upstreamCallFor(ctx, next, call, abort.signal);
        if (passes(adapter)) return { kind: 'pass', result: await adapter.embedPassThrough!(call.openAiBody!, upstreamCall) };
        return { kind: 'embedded', response: await adapter.embed!(call.request, upstreamCall) };
      },
    );
    target = attempt.target;
    const answer = attempt.value;
    if (answer.kind === 'pass') {
      reported = answer.result.inputTokens;
      reply.code(answer.result.status).type(answer.result.contentType).send(answer.result.body);
      httpStatus = answer.result.status;
    } else {
      reported = answer.response.inputTokens;
      const inputTokens = reported ?? call.countInput();
      reply
        .code(200)
        .type('application/json')
        .send(JSON.stringify(codec.render(answer.response, inputTokens)));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = toGatewayError(thrown);
    if (error.kind === 'internal') ctx.logger.error({ err: thrown, requestId: call.requestId }, 'embeddings request failed');
    if (!reply.raw.destroyed) sendRenderedError(reply, codec.renderError(error, call.requestId));
    httpStatus = error.status;
  }
  settle(ctx, {
    requestId: call.requestId,
    family: codec.family,
    key: call.key,
    model: call.model,
    upstreamModel: target?.upstreamModel,
    channelId: target?.channel.id,
    attempts,
    stream: false,
    httpStatus,
    error,
    reported: reported === undefined ? { outputTokens: 0 } : { inputTokens: reported, outputTokens: 0 },
    answered: error === undefined,
    estimateInput: () => call.countInput(),
    deliveredText: () => '',
    startedAt: call.startedAt,
    clientIp: call.clientIp,
    hold,
  });
}

function tokenInputRefused(model: string): GatewayError {
  return invalidRequest(`input given as token ids needs a channel that takes OpenAI embedding requests as they are (type openai-chat); none serves model "${model}"; send the text instead`, 'input');
}
