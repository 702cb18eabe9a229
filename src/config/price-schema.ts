/**
 * One model's price, the one schema the config file, the admin API and the
 * CLI check it with. Token prices are USD per million tokens; a key's quota
 * is in USD. Cache reads and writes fall back to the input price, one-hour
 * cache writes to the (five-minute) cache-write price, reasoning to the
 * output price. A tier replaces the prices it names for requests whose
 * prompt (input, cache reads and writes) is over `above` tokens: long-context
 * pricing, where the whole request is priced at the higher rate.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../core/model-name.js';

export interface TokenPrices {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Cache writes with the one-hour TTL (Anthropic); the cache-write price when unset. */
  cacheWrite1h?: number;
  /** Reasoning tokens, when priced apart from other output; the output price when unset. */
  reasoning?: number;
}

export interface PriceTier extends TokenPrices {
  /** The tier applies when the prompt is over this many tokens. */
  above: number;
}

export interface ModelPrice extends TokenPrices {
  /** USD per call, for work priced per task (image actions: `ig_<action>`). */
  perCall?: number;
  /** USD per image made (`/v1/images/*`), on top of any token prices. */
  perImage?: number;
  /** USD per second of video (one number, or by resolution tier: `480P`, `720P`, `1080P`, `*`) or of audio (the number, or the `*` tier). */
  perSecond?: number | Record<string, number>;
  /** Long-context tiers, lowest `above` first. */
  tiers?: PriceTier[];
  /** Share of the token prices a line pays when the upstream's batch API served it (default 0.5). */
  batchRatio?: number;
}

/** The batch share when a price names none: OpenAI's batch discount. */
export const DEFAULT_BATCH_RATIO = 0.5;

const usd = () => z.number().nonnegative().finite();

const tokenPriceFields = () => ({
  input: usd().optional().describe('USD per million input tokens.'),
  output: usd().optional().describe('USD per million output tokens.'),
  cacheRead: usd().optional().describe('USD per million tokens read from the prompt cache (default: `input`).'),
  cacheWrite: usd().optional().describe('USD per million tokens written to the prompt cache (default: `input`).'),
  cacheWrite1h: usd().optional().describe('USD per million tokens written to the prompt cache with the one-hour TTL (default: `cacheWrite`).'),
  reasoning: usd().optional().describe('USD per million reasoning tokens, when priced apart from output (default: `output`).'),
});

export const priceSchema = builtOnce(() =>
  z
    .strictObject({
      ...tokenPriceFields(),
      perCall: usd().optional().describe('USD per call, for work priced per task (image actions: `ig_<action>`).'),
      perImage: usd().optional().describe('USD per image made by `/v1/images/generations` and `/v1/images/edits`, on top of any token prices (gpt-image models report tokens).'),
      perSecond: z
        .union([usd(), z.record(z.string().regex(/^(\d{3,4}P|\*)$/, { error: 'must be a tier such as 720P, or *' }), usd())])
        .optional()
        .describe(
          'USD per second of video: one number, or by resolution tier (`{ "480P": 0.05, "720P": 0.1, "*": 0.1 }`); and per second of audio (`/v1/audio/*`: speech made, audio transcribed or translated), the number or the `*` tier, on top of any token prices.',
        ),
      batchRatio: z
        .number()
        .gt(0, { error: 'must be above 0' })
        .lte(1, { error: 'must be at most 1' })
        .optional()
        .describe("Share of the token prices a line pays when the upstream's batch API served it (default 0.5, OpenAI's batch discount)."),
      tiers: z
        .array(z.strictObject({ above: z.number().int().positive().describe('Prompt tokens over which the tier applies.'), ...tokenPriceFields() }))
        .max(8)
        .optional()
        .describe('Long-context prices: each replaces the prices it names when the prompt is over `above` tokens.'),
    })
    .transform((price): ModelPrice => (price.tiers ? { ...price, tiers: [...price.tiers].sort((a, b) => a.above - b.above) } : price)),
);

/** A model name, `*`, or `prefix*`, as prices are keyed. */
export const pricePatternSchema = builtOnce(() =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(256)
    .refine((pattern) => !pattern.slice(0, -1).includes('*'), { error: 'may hold `*` only at its end' })
    // Patterns are stored, logged and shown: the rules a client's model name meets.
    .refine(isWellFormedModelName, { error: modelNameIssue }),
);
