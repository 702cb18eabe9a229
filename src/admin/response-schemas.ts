/**
 * What the admin API answers, as schemas: rendered into its OpenAPI document
 * (openapi.ts) and checked against real answers by test/admin/openapi.test.ts,
 * so the document cannot drift from the code.
 */
import { z } from 'zod';
import { priceSchema } from '../config/price-schema.js';

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
  ignoredSettings: z
    .array(z.string())
    .describe('Settings the channel keeps but the gateway ignores (keys its type does not know, values of leniently read keys that do not fit), stored before settings were checked; empty when none.'),
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
  estimated: z.boolean().describe('Some number was counted by the gateway (see `estimatedParts`; older rows have only this flag).'),
  estimatedParts: z.array(z.enum(['input', 'output'])).describe('The numbers the gateway counted with its tokenizer because the upstream never reported them (a stream cut before its final usage): `input` (the prompt), `output` (what was delivered).'),
  cost: z.number(),
  upstreamCost: z.number().nullable().describe('What the serving channel\'s provider charged, by its cost table; null when it has no price for the model.'),
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

const upstreamCostSums = {
  upstreamCost: z.number().describe('What the providers charged, by the serving channels\' cost tables, for the requests whose cost is known.'),
  costedRequests: count.describe('Requests whose upstream cost is known (their channel has a price for their model in its `costs`).'),
  costedSpend: z.number().describe('What clients were charged for those requests.'),
};

const marginFields = {
  cost: z.number().describe('What clients were charged (spend), refunds subtracted.'),
  ...upstreamCostSums,
  margin: z.number().nullable().describe('`costedSpend − upstreamCost`; null when no request\'s upstream cost is known.'),
  uncostedRequests: count.describe('Requests a channel served whose upstream cost is unknown (no cost table, or no price in it for the model): the margin leaves them out. Requests no channel served cost nothing upstream and are not counted.'),
};

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
      ...upstreamCostSums,
      unpricedRequests: count.describe('Requests answered while the model had no price anywhere (operator or built-in catalogue): their cost counts as 0.'),
    }),
  ),
  channels: z
    .array(z.object({ channelId: z.string().nullable().describe('Null: requests no channel served.'), channelName: z.string().nullable(), requests: count, ...marginFields }))
    .describe('Spend, upstream cost and margin per serving channel, most spend first.'),
  totals: z.object({ requests: count, ...marginFields }),
});

const usageTotals = z.object({
  requests: count,
  errors: count,
  rateLimited: count,
  failovers: count,
  inputTokens: count,
  outputTokens: count,
  cost: z.number(),
  ...upstreamCostSums,
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

const price = priceSchema().in.describe('USD per million tokens, per call or per second (see the config file reference, `prices`).');
const priceSource = z.enum(['admin', 'config']).describe('`admin`: set through the admin API or CLI; `config`: applied from the config file.');

export const priceViewSchema = z.object({
  model: z.string().describe('A model name, `*`, or `prefix*`.'),
  price,
  source: priceSource,
  updatedAt: ms,
  configOwned: z.boolean().describe('The config file declares this model’s price: it sets it again (source `config`) when the file’s price for it changes.'),
});

const catalogueAbout = z.object({ package: z.string(), version: z.string(), date: z.string() });

export const pricesSchema = z.object({
  data: z.array(priceViewSchema),
  problems: z.array(z.object({ model: z.string(), problem: z.string() })).describe('Stored prices that no longer parse (edited by hand): skipped until fixed.'),
  catalogue: catalogueAbout.nullable().describe('The built-in catalogue models priced nowhere else fall back on; null when none is set.'),
});

export const priceDeletedSchema = z.object({ model: z.string(), deleted: z.literal(true) });

export const priceQuoteSchema = z.object({
  model: z.string(),
  upstreamModel: z.string().nullable(),
  quote: z
    .object({
      price,
      source: z.enum(['admin', 'config', 'catalogue']),
      matched: z.string().describe('The operator’s name or pattern that matched, or the name the catalogue priced.'),
    })
    .nullable()
    .describe('null: priced nowhere, such a request costs nothing.'),
});

export const priceCatalogueSchema = z.object({
  about: catalogueAbout.nullable().describe('null (and no models) when no catalogue is set.'),
  data: z.array(z.object({ model: z.string(), provider: z.string(), name: z.string().optional(), price })),
});

export const settingsSchema = z.object({
  data: z.array(z.object({ name: z.string(), section: z.string(), value: z.union([z.string(), z.number()]).nullable(), source: z.enum(['environment', 'default']), description: z.string() })),
  configFile: z.string().nullable(),
  configOwned: z
    .object({ channels: z.record(z.string(), z.array(z.string())), keys: z.record(z.string(), z.array(z.string())), prices: z.record(z.string(), z.array(z.string())) })
    .describe('Fields the config file declares, per channel and key name, and the models whose price it declares (`["price"]`): it rewrites them when it changes.'),
});

export const channelTypesSchema = z.object({
  data: z.array(
    z.object({
      type: z.string(),
      serves: z.array(z.enum(['chat', 'images', 'videos'])),
      needs: z
        .object({ baseUrl: z.boolean(), credentials: z.boolean() })
        .describe('What a channel of the type must declare before it is stored: an absolute http(s) base URL, at least one credential.'),
      defaultModels: z.array(z.string()).optional().describe('The models a channel serves when it lists none; absent: the operator must list them.'),
      settings: z
        .record(z.string(), z.unknown())
        .describe('The JSON Schema of the `settings` a channel of the type takes: every key with its description and default; any other key is refused.'),
    }),
  ),
});
