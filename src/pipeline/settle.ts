/**
 * Settles one request, exactly once: completes the usage (the upstream's
 * final usage, or what was delivered counted by the tokenizer), prices it, and hands
 * the log row and the spend to the batched recorder. A token count settles
 * with `settleCount`: its log row only, nothing charged.
 */
import type { Attempt } from '../core/attempt.js';
import type { EstimatedPart, Usage } from '../core/chat.js';
import { isLimitRefusal, type GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import type { ClientKey } from '../http/auth.js';
import { requestLogRow } from '../billing/log-row.js';
import { upstreamCostOf } from '../billing/upstream-cost.js';
import { chargedUsage } from '../billing/delivered-usage.js';
import { costOf } from '../billing/cost.js';
import { DEFAULT_BATCH_RATIO } from '../config/price-schema.js';
import { warnUnpricedOnce } from '../billing/unpriced.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import { chargeBudgets } from './quota-hold.js';

/** Where a request went and who sent it: what its settlement and its log row say on every path. */
export interface RoutedFields {
  requestId: string;
  family: string;
  key: ClientKey | null;
  model: string;
  upstreamModel?: string;
  channelId?: string;
  attempts: Attempt[];
  startedAt: number;
  clientIp: string;
}

export interface SettleInput extends RoutedFields {
  stream: boolean;
  httpStatus: number;
  error?: GatewayError;
  /** What the upstream reported: its final usage, or only the prompt's counters (a stream cut short). */
  reported?: Partial<Usage>;
  /** Whether the upstream produced anything at all (no charge otherwise). */
  answered: boolean;
  /** Estimates the prompt when the upstream did not report it. */
  estimateInput: () => number;
  /** Text actually delivered, to count output when the upstream's final usage never came. */
  deliveredText: () => string;
  firstByteAt?: number;
  /** What translation mapped or ignored (see core/translation-plan.ts), when anything. */
  translation?: string;
  /** The quota hold taken before routing, released here with the actual cost. */
  hold?: QuotaHold;
  /** Free unless a price is set (moderations): no price is then no cost, not an unpriced model. */
  freeUnlessPriced?: boolean;
  /** Images made (`/v1/images/*`): each charged the model's `perImage`, on top of its tokens. */
  images?: number;
  /** Seconds of audio (`/v1/audio/*`): charged the model's `perSecond`, on top of its tokens. */
  audioSeconds?: number;
  /** A batch line an upstream's batch API served: its tokens at the price's `batchRatio` share. */
  batchPrice?: boolean;
}

/** The usage the request is charged for: the one rule in billing/delivered-usage.ts. */
export function completeUsage(input: SettleInput): Usage {
  return chargedUsage(input);
}

function operationOf(family: string): 'chat' | 'text_completion' | 'embeddings' | 'rerank' | 'moderations' | 'image_generation' | 'speech' | 'transcription' {
  if (family === 'embeddings' || family === 'rerank' || family === 'moderations') return family;
  if (family === 'image-generations') return 'image_generation';
  if (family === 'audio-speech') return 'speech';
  if (family === 'audio-transcriptions' || family === 'audio-translations') return 'transcription';
  return family === 'completions' ? 'text_completion' : 'chat';
}

/** The request's metrics and its note for the access log and the trace span, from what settled it. */
function observeSettled(ctx: AppContext, input: SettleInput, usage: Usage, cost: number, now: number): void {
  const channel = input.channelId ?? 'none';
  // The GenAI semantic conventions' operation names: legacy Completions are `text_completion`.
  const operation = operationOf(input.family);
  ctx.metrics.observe({
    family: input.family,
    operation,
    model: input.model,
    channel,
    status: input.httpStatus,
    durationMs: now - input.startedAt,
    firstByteMs: input.stream && input.firstByteAt !== undefined ? input.firstByteAt - input.startedAt : undefined,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cost,
    keyName: input.key?.record.name ?? 'none',
    teamId: input.key?.record.teamId,
    failovers: Math.max(0, input.attempts.length - 1),
    limitKind: input.error && isLimitRefusal(input.error.kind) ? input.error.kind : undefined,
  });
  ctx.accessNotes.note(input.requestId, {
    key: input.key?.record.name,
    model: input.model,
    channel: input.channelId,
    attempts: input.attempts.length,
    family: input.family,
    operation,
    upstreamModel: input.upstreamModel,
    ...(input.answered ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : {}),
  });
}

/** What the serving channel's provider charged for the usage; null when no channel served or it has no cost table for the model. */
function upstreamCostFor(ctx: AppContext, input: SettleInput, usage: Usage): number | null {
  if (input.channelId === undefined) return null;
  const cost = upstreamCostOf(ctx.channels.costsOf(input.channelId), input.model, input.upstreamModel, usage);
  // A batch API charges its batch price: OpenAI's, half its interactive one.
  return cost !== null && input.batchPrice ? cost * DEFAULT_BATCH_RATIO : cost;
}

/** The request's cost, and whether its model had no price anywhere although it was answered with usage. */
function priceOf(ctx: AppContext, input: SettleInput, usage: Usage): { cost: number; unpriced: boolean } {
  if (!input.answered) return { cost: 0, unpriced: false };
  const quote = ctx.prices.quote(input.model, input.upstreamModel);
  const images = input.images ?? 0;
  const seconds = input.audioSeconds ?? 0;
  if (quote)
    return {
      cost: costOf(quote.price, usage) * (input.batchPrice ? (quote.price.batchRatio ?? DEFAULT_BATCH_RATIO) : 1) + images * (quote.price.perImage ?? 0) + seconds * perSecondOf(quote.price),
      unpriced: false,
    };
  if (input.freeUnlessPriced) return { cost: 0, unpriced: false };
  const used = images > 0 || seconds > 0 || usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens > 0;
  if (used) warnUnpricedOnce(ctx.prices, ctx.logger, input.model);
  return { cost: 0, unpriced: used };
}

/** Audio's price per second: the number, or a tiered price's `*` tier (tiers by resolution are video's). */
function perSecondOf(price: { perSecond?: number | Record<string, number> }): number {
  const perSecond = price.perSecond;
  return typeof perSecond === 'number' ? perSecond : (perSecond?.['*'] ?? 0);
}

export function settle(ctx: AppContext, input: SettleInput): Usage {
  const usage = completeUsage(input);
  const { cost, unpriced } = priceOf(ctx, input, usage);
  const key = input.key?.record;
  const now = Date.now();
  ctx.recorder.record(
    requestLogRow(
      {
        requestId: input.requestId,
        keyId: key?.id ?? null,
        teamId: key?.teamId ?? null,
        userId: key?.userId ?? null,
        family: input.family,
        model: input.model,
        upstreamModel: input.upstreamModel ?? null,
        channelId: input.channelId ?? null,
        attempts: input.attempts,
        httpStatus: input.httpStatus,
        errorKind: input.error?.kind ?? null,
        errorMessage: input.error?.message ?? null,
        stream: input.stream,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cacheReadTokens: usage.cacheReadTokens,
        cacheWriteTokens: usage.cacheWriteTokens,
        cacheWrite1hTokens: usage.cacheWrite1hTokens ?? 0,
        reasoningTokens: usage.reasoningTokens ?? 0,
        estimatedParts: usage.estimatedParts,
        cost,
        upstreamCost: upstreamCostFor(ctx, input, usage),
        unpriced,
        firstByteMs: input.firstByteAt === undefined ? null : input.firstByteAt - input.startedAt,
        clientIp: input.clientIp,
        translation: input.translation ?? null,
        images: input.images ?? null,
        startedAt: input.startedAt,
      },
      now,
    ),
    key && cost > 0 && !input.hold?.recordsSpend ? { keyId: key.id, amount: cost } : undefined,
  );
  const tokens = usage.inputTokens + usage.outputTokens;
  // Never throws: a release that fails is logged by the ledger and its hold expires.
  if (input.hold) {
    void input.hold.release(cost, tokens);
    chargeBudgets(ctx, input.hold, cost, tokens);
  }
  observeSettled(ctx, input, usage, cost, now);
  if (key) {
    if (cost > 0) ctx.auth.noteSpend(key.keyHash, cost);
    ctx.limits.recordTokens(key, tokens)?.catch((error) => ctx.logger.warn({ err: error }, 'tpm record failed'));
  }
  return usage;
}

/** A token count's settlement: it costs nothing and consumes no tokens-per-minute. */
export interface CountSettlement extends RoutedFields {
  httpStatus: number;
  error?: GatewayError;
  /** The gateway's tokenizer counted the prompt (no upstream counting endpoint served it). */
  estimated: boolean;
}

const PROMPT_COUNTED: readonly EstimatedPart[] = ['input'];

/**
 * One log row per count; no tokens, no cost, no spend, no tokens-per-minute.
 * Its fields are written out as `settle` writes them rather than shared through
 * a spread: building the charged row from a spread part cost 60 µs a request.
 */
export function settleCount(ctx: AppContext, input: CountSettlement): void {
  ctx.recorder.record(
    requestLogRow({
      requestId: input.requestId,
      keyId: input.key?.record.id ?? null,
      teamId: input.key?.record.teamId ?? null,
      userId: input.key?.record.userId ?? null,
      family: input.family,
      model: input.model,
      upstreamModel: input.upstreamModel ?? null,
      channelId: input.channelId ?? null,
      attempts: input.attempts,
      httpStatus: input.httpStatus,
      errorKind: input.error?.kind ?? null,
      errorMessage: input.error?.message ?? null,
      stream: false,
      // The count is of the prompt: that is the part the gateway counted when the upstream could not.
      estimatedParts: input.estimated ? PROMPT_COUNTED : [],
      cost: 0,
      clientIp: input.clientIp,
      startedAt: input.startedAt,
    }),
    undefined,
  );
}
