/**
 * What the admin API answers, as schemas: rendered into its OpenAPI document
 * (openapi.ts) and checked against real answers by test/admin/openapi.test.ts,
 * so the document cannot drift from the code.
 */
import { z } from 'zod';

const ms = z.number().describe('Epoch milliseconds.');
const nullableMs = ms.nullable();
const count = z.number().int().nonnegative();

export const adminErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.string().optional() }),
});

export const keyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  keyPrefix: z.string().describe('The first characters of the secret, to recognise it.'),
  status: z.enum(['active', 'disabled']),
  quota: z.number().nullable(),
  used: z.number().describe('Spend so far, USD.'),
  remaining: z.number().nullable(),
  models: z.array(z.string()).nullable(),
  allowIps: z.array(z.string()).nullable(),
  rpm: z.number().int().nullable(),
  tpm: z.number().int().nullable(),
  expiresAt: nullableMs,
  strictTranslation: z.boolean(),
  createdAt: ms,
  updatedAt: ms,
});

const keyWarnings = z
  .array(z.string())
  .optional()
  .describe('Present when the key has a quota and may use models with no price anywhere (operator or built-in catalogue): each names one; their requests would cost nothing against the quota.');

export const createdKeySchema = keyViewSchema.extend({ key: z.string().describe('The secret: shown in this answer only.'), warnings: keyWarnings });

export const changedKeySchema = keyViewSchema.extend({ warnings: keyWarnings });

const breakerState = z.enum(['closed', 'open', 'half_open']);

export const channelViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  baseUrl: z.string(),
  models: z.array(z.string()),
  modelMapping: z.record(z.string(), z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  status: z.enum(['enabled', 'disabled']),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.unknown()),
  apiKeyCount: count.describe('How many upstream credentials are set (never the credentials).'),
  createdAt: ms,
  updatedAt: ms,
  health: z
    .object({
      state: breakerState,
      openUntil: nullableMs,
      reason: z.string().nullable(),
      consecutiveFailures: count,
      recentOutcomes: count,
      recentFailures: count,
      recentErrors: z.array(z.object({ at: ms, message: z.string() })),
      keys: z.array(z.object({ index: count, fingerprint: z.string(), state: breakerState }).loose()),
    })
    .loose()
    .describe('The circuit breaker as this instance sees it, and one per upstream credential.'),
  problem: z
    .string()
    .nullable()
    .describe('Why the channel serves nothing though configured (credentials that cannot be opened, settings its type rejects), as this instance sees it; null when usable.'),
});

export const attemptSchema = z.object({
  channel: z.string(),
  channelId: z.string(),
  at: ms,
  durationMs: z.number(),
  status: z.number().int().nullable(),
  errorKind: z.string().nullable(),
  message: z.string().nullable(),
});

export const logRowSchema = z.object({
  id: z.string(),
  requestId: z.string(),
  keyId: z.string().nullable(),
  family: z.string(),
  model: z.string(),
  upstreamModel: z.string().nullable(),
  channelId: z.string().nullable(),
  triedChannels: z.array(z.string()),
  httpStatus: z.number().int(),
  errorKind: z.string().nullable(),
  errorMessage: z.string().nullable(),
  stream: z.boolean(),
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  cacheWrite1hTokens: count.describe('The part of `cacheWriteTokens` written with the one-hour TTL.'),
  reasoningTokens: count,
  estimated: z.boolean(),
  cost: z.number(),
  unpriced: z.boolean().describe('Answered while the model had no price anywhere (operator or built-in catalogue): the cost of 0 is not a price.'),
  latencyMs: z.number(),
  firstByteMs: z.number().nullable(),
  clientIp: z.string().nullable(),
  translation: z.string().nullable(),
  attempts: z.array(attemptSchema),
  createdAt: ms,
});

const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), hasMore: z.boolean(), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page.') });

export const logPageSchema = pageOf(logRowSchema);

export const logDetailSchema = logRowSchema.extend({
  keyName: z.string().nullable(),
  channelName: z.string().nullable(),
  translationPlan: z.object({ mapped: z.array(z.string()), ignored: z.array(z.string()) }),
  timings: z.object({
    totalMs: z.number(),
    firstByteMs: z.number().nullable(),
    queueMs: z.number().nullable().describe('Before the first channel was tried (authentication, limits, quota hold).'),
    upstreamMs: z.number().nullable().describe('The attempts together.'),
  }),
});

export const usageSummarySchema = z.object({
  data: z.array(
    z.object({
      keyId: z.string().nullable(),
      model: z.string(),
      requests: count,
      inputTokens: count,
      outputTokens: count,
      cacheReadTokens: count,
      cacheWriteTokens: count,
      cacheWrite1hTokens: count.describe('The part of `cacheWriteTokens` written with the one-hour TTL.'),
      cost: z.number(),
      unpricedRequests: count.describe('Requests answered while the model had no price anywhere (operator or built-in catalogue): their cost counts as 0.'),
    }),
  ),
});

const usageTotals = z.object({
  requests: count,
  errors: count,
  rateLimited: count,
  failovers: count,
  inputTokens: count,
  outputTokens: count,
  cost: z.number(),
  unpricedRequests: count.describe('Requests answered while their model had no price anywhere: their cost counts as 0.'),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  ttftP50Ms: z.number().nullable(),
});

export const usageSeriesSchema = z.object({
  since: ms,
  until: ms,
  step: z.number().int(),
  by: z.enum(['none', 'family', 'model', 'channel', 'key']),
  totals: usageTotals,
  series: z.array(z.object({ group: z.string(), label: z.string(), totals: usageTotals, points: z.array(usageTotals.extend({ t: ms })) })),
});

export const channelTestSchema = z.object({
  ok: z.boolean(),
  status: z.number().int(),
  latencyMs: z.number(),
  model: z.string(),
  upstreamModel: z.string(),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
  sample: z.string().nullable(),
});

export const taskViewSchema = z.object({
  id: z.string(),
  family: z.string(),
  action: z.string(),
  status: z.string(),
  progress: z.number(),
  keyId: z.string(),
  channelId: z.string(),
  model: z.string().nullable(),
  prompt: z.string().nullable(),
  cost: z.number(),
  billing: z.string(),
  failReason: z.string().nullable(),
  submitTime: ms,
  startTime: nullableMs,
  finishTime: nullableMs,
  pollCount: count,
  createdAt: ms,
  media: z.array(z.object({ url: z.string(), contentType: z.string(), width: z.number().nullable(), height: z.number().nullable(), role: z.string().nullable() })),
  buttons: z.array(z.object({ customId: z.string(), label: z.string() })),
});

export const taskPageSchema = pageOf(taskViewSchema);

export const taskDetailSchema = taskViewSchema.extend({
  clientView: z.unknown().describe('The task exactly as its client sees it.'),
  history: z.array(z.object({ at: ms, event: z.string(), detail: z.string().nullable() })),
  deliveries: z.array(
    z.object({
      id: z.string(),
      url: z.string().describe('The callback address, without its query string.'),
      event: z.string(),
      final: z.boolean(),
      status: z.string(),
      attempts: count,
      maxAttempts: count,
      lastStatus: z.number().nullable(),
      lastError: z.string().nullable(),
      deliveredAt: nullableMs,
      createdAt: ms,
    }),
  ),
});

export const pricesSchema = z.object({
  data: z.array(
    z.object({
      model: z.string().describe('A model name or `prefix*`.'),
      input: z.number().optional(),
      output: z.number().optional(),
      cacheRead: z.number().optional(),
      cacheWrite: z.number().optional(),
      perCall: z.number().optional(),
      perSecond: z.union([z.number(), z.record(z.string(), z.number())]).optional(),
    }),
  ),
  source: z.literal('config file').describe('Prices are set in the config file; the API reads them.'),
});

export const settingsSchema = z.object({
  data: z.array(z.object({ name: z.string(), section: z.string(), value: z.union([z.string(), z.number()]).nullable(), source: z.enum(['environment', 'default']), description: z.string() })),
  configFile: z.string().nullable(),
  configOwned: z.object({ channels: z.record(z.string(), z.array(z.string())), keys: z.record(z.string(), z.array(z.string())) }).describe('Fields the config file declares, per channel and key name: it rewrites them when it changes.'),
});

export const channelTypesSchema = z.object({
  data: z.array(z.object({ type: z.string(), serves: z.array(z.enum(['chat', 'images', 'videos'])) })),
});
