/**
 * The path every token-counting request takes after its family parsed and
 * validated it. It is routed like a chat request (key, model allow-list,
 * quota, requests-per-minute, channels by priority and weight, failover on
 * connect errors, 429 and 5xx) but nothing is generated:
 * - a channel speaking the client's dialect natively counts with its own
 *   counting endpoint, and its answer goes back byte for byte;
 * - anywhere else (translation, the simulator, an upstream answering 404 for
 *   counting) the gateway's tokenizer counts the request, and the answer says
 *   so in `x-switchyard-estimated: true`.
 * A count costs nothing and consumes no tokens-per-minute: its request-log
 * row has no tokens and no cost, only whether the count was estimated.
 */
import { CallAbort } from '../core/call-signal.js';
import type { Attempt } from '../core/attempt.js';
import type { FastifyReply } from 'fastify';
import type { ChatRequest, Dialect, EstimatedPart } from '../core/chat.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { countRequestTokens } from '../core/tokens.js';
import { requestLogRow } from '../billing/log-row.js';
import { withFailover } from '../routing/failover.js';
import type { AppContext } from '../http/context.js';
import { chatCandidates, logUnexpectedAttempt, upstreamCallFor } from './upstream-call.js';
import type { ClientKey } from '../http/auth.js';
import type { Channel } from '../core/channel.js';
import type { CountTokensResult, PassThroughRequest, UpstreamAdapter } from '../upstreams/types.js';
import type { RenderedError } from './types.js';
import { sendRenderedError } from './error-reply.js';

const PROMPT_COUNTED: readonly EstimatedPart[] = ['input'];

export const ESTIMATED_HEADER = 'x-switchyard-estimated';

/** How one family speaks counting: its dialect, its answer and its error shape. */
export interface CountCodec {
  /** The family name written to request logs, e.g. `messages.count_tokens`. */
  readonly family: string;
  readonly dialect: Dialect;
  /** The family's answer for a count the gateway made itself. */
  renderCount(inputTokens: number): unknown;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

/** One authenticated, validated counting request, ready for routing. */
export interface CountCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  model: string;
  startedAt: number;
  /** The request a native channel receives (the adapter maps the model name). */
  nativeRequest(channel: Channel): PassThroughRequest | Promise<PassThroughRequest>;
  /** The internal request the gateway's tokenizer counts. */
  toCore(): ChatRequest | Promise<ChatRequest>;
}

type Counted = { kind: 'forwarded'; result: CountTokensResult } | { kind: 'estimate' };

export async function serveCountTokens(ctx: AppContext, call: CountCall, codec: CountCodec, reply: FastifyReply): Promise<void> {
  const attempts: Attempt[] = [];
  const abort = new CallAbort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) abort.abort();
  });
  let target: { channel: Channel; upstreamModel: string } | undefined;
  let httpStatus: number;
  let estimated = false;
  let error: GatewayError | undefined;

  try {
    ctx.auth.authorize(call.key, call.model);
    await ctx.limits.admit(call.key.record);
    const candidates = chatCandidates(ctx, call.model);
    const attempt = await withFailover(
      candidates,
      { model: call.model, maxAttempts: ctx.settings.maxAttempts, health: ctx.health, attempts, signal: abort.signal, onUnexpected: logUnexpectedAttempt(ctx.logger, call.requestId) },
      async (next): Promise<Counted> => {
        const adapter = ctx.adapters.get(next.channel.type);
        if (!countsNatively(adapter, codec)) return { kind: 'estimate' };
        const upstreamCall = upstreamCallFor(ctx, next, call, abort.signal);
        try {
          return { kind: 'forwarded', result: await adapter.countTokens!(await call.nativeRequest(next.channel), upstreamCall) };
        } catch (thrown) {
          // An upstream without a counting endpoint (or without this model's): the gateway counts instead.
          if (thrown instanceof GatewayError && thrown.upstreamStatus === 404) return { kind: 'estimate' };
          throw thrown;
        }
      },
    );
    target = attempt.target;
    if (attempt.value.kind === 'forwarded') {
      const { result } = attempt.value;
      reply.code(result.status).type(result.contentType).send(result.body);
      httpStatus = result.status;
    } else {
      const inputTokens = countRequestTokens(await call.toCore());
      estimated = true;
      reply
        .header(ESTIMATED_HEADER, 'true')
        .code(200)
        .type('application/json')
        .send(JSON.stringify(codec.renderCount(inputTokens)));
      httpStatus = 200;
    }
  } catch (thrown) {
    error = toGatewayError(thrown);
    if (error.kind === 'internal') ctx.logger.error({ err: thrown, requestId: call.requestId }, 'count request failed');
    if (!reply.raw.destroyed) sendError(reply, codec, error, call.requestId);
    httpStatus = error.status;
  }

  recordCount(ctx, call, codec, { target, attempts, httpStatus, estimated, error });
}

function countsNatively(adapter: UpstreamAdapter, codec: CountCodec): boolean {
  return adapter.nativeDialect === codec.dialect && adapter.countTokens !== undefined;
}

function sendError(reply: FastifyReply, codec: CountCodec, error: GatewayError, requestId: string): void {
  sendRenderedError(reply, codec.renderError(error, requestId));
}

interface CountOutcome {
  target?: { channel: Channel; upstreamModel: string };
  attempts: Attempt[];
  httpStatus: number;
  estimated: boolean;
  error?: GatewayError;
}

/** One log row per count; no tokens, no cost, no spend, no tokens-per-minute. */
function recordCount(ctx: AppContext, call: CountCall, codec: CountCodec, outcome: CountOutcome): void {
  ctx.recorder.record(
    requestLogRow({
      requestId: call.requestId,
      keyId: call.key.record.id,
      family: codec.family,
      model: call.model,
      upstreamModel: outcome.target?.upstreamModel ?? null,
      channelId: outcome.target?.channel.id ?? null,
      attempts: outcome.attempts,
      httpStatus: outcome.httpStatus,
      errorKind: outcome.error?.kind ?? null,
      errorMessage: outcome.error?.message ?? null,
      stream: false,
      // The count is of the prompt: that is the part the gateway counted when the upstream could not.
      estimatedParts: outcome.estimated ? PROMPT_COUNTED : [],
      cost: 0,
      clientIp: call.clientIp,
      startedAt: call.startedAt,
    }),
    undefined,
  );
}
