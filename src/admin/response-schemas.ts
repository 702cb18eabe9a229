/**
 * What the admin API answers, as schemas: rendered into its OpenAPI document
 * (openapi.ts) and checked against real answers by test/admin/openapi.test.ts,
 * so the document cannot drift from the code. The request log's and usage
 * answers are in log-schemas.ts, the tasks' in task-schemas.ts.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { priceSchema } from '../config/price-schema.js';
import { count, ms, nullableMs } from './schema-parts.js';

export const adminErrorSchema = builtOnce(() =>
  z.object({
    error: z.object({ message: z.string(), type: z.string(), param: z.string().optional() }),
  }),
);

export const keyViewSchema = builtOnce(() =>
  z.object({
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
    expiresAt: nullableMs(),
    strictTranslation: z.boolean(),
    teamId: z.string().nullable().describe('The team that owns the key; null: none.'),
    userId: z.string().nullable().describe('The user the key is for, a member of its team; null: the team’s key (or no one’s).'),
    createdAt: ms(),
    updatedAt: ms(),
  }),
);

const keyWarnings = builtOnce(() =>
  z
    .array(z.string())
    .optional()
    .describe('Present when the key has a quota and may use models with no price anywhere (operator or built-in catalogue): each names one; their requests would cost nothing against the quota.'),
);

export const createdKeySchema = builtOnce(() => keyViewSchema().extend({ key: z.string().describe('The secret: shown in this answer only.'), warnings: keyWarnings() }));

export const changedKeySchema = builtOnce(() => keyViewSchema().extend({ warnings: keyWarnings() }));

const breakerState = builtOnce(() => z.enum(['closed', 'open', 'half_open']));

export const channelViewSchema = builtOnce(() =>
  z.object({
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
    apiKeyCount: count().describe('How many upstream credentials are set (never the credentials).'),
    createdAt: ms(),
    updatedAt: ms(),
    health: z
      .object({
        state: breakerState(),
        openUntil: nullableMs(),
        reason: z.string().nullable(),
        consecutiveFailures: count(),
        recentOutcomes: count(),
        recentFailures: count(),
        recentErrors: z.array(z.object({ at: ms(), message: z.string() })),
        keys: z.array(z.object({ index: count(), fingerprint: z.string(), state: breakerState() }).loose()),
      })
      .loose()
      .describe('The circuit breaker as this instance sees it, and one per upstream credential.'),
    problem: z
      .string()
      .nullable()
      .describe('Why the channel serves nothing though configured (credentials that cannot be opened, settings its type rejects), as this instance sees it; null when usable.'),
    ignoredSettings: z
      .array(z.string())
      .describe(
        'Settings the channel keeps but the gateway ignores (keys its type does not know, values of leniently read keys that do not fit), stored before settings were checked; empty when none.',
      ),
  }),
);

export const channelTestSchema = builtOnce(() =>
  z.object({
    ok: z.boolean(),
    status: z.number().int(),
    latencyMs: z.number(),
    model: z.string(),
    upstreamModel: z.string(),
    error: z.object({ type: z.string(), message: z.string() }).nullable(),
    sample: z.string().nullable(),
  }),
);

const price = builtOnce(() => priceSchema().in.describe('USD per million tokens, per call or per second (see the config file reference, `prices`).'));
const priceSource = builtOnce(() => z.enum(['admin', 'config']).describe('`admin`: set through the admin API or CLI; `config`: applied from the config file.'));

export const priceViewSchema = builtOnce(() =>
  z.object({
    model: z.string().describe('A model name, `*`, or `prefix*`.'),
    price: price(),
    source: priceSource(),
    updatedAt: ms(),
    configOwned: z.boolean().describe('The config file declares this model’s price: it sets it again (source `config`) when the file’s price for it changes.'),
  }),
);

const catalogueAbout = builtOnce(() => z.object({ package: z.string(), version: z.string(), date: z.string() }));

export const pricesSchema = builtOnce(() =>
  z.object({
    data: z.array(priceViewSchema()),
    problems: z.array(z.object({ model: z.string(), problem: z.string() })).describe('Stored prices that no longer parse (edited by hand): skipped until fixed.'),
    catalogue: catalogueAbout().nullable().describe('The built-in catalogue models priced nowhere else fall back on; null when none is set.'),
  }),
);

export const priceDeletedSchema = builtOnce(() => z.object({ model: z.string(), deleted: z.literal(true) }));

export const priceQuoteSchema = builtOnce(() =>
  z.object({
    model: z.string(),
    upstreamModel: z.string().nullable(),
    quote: z
      .object({
        price: price(),
        source: z.enum(['admin', 'config', 'catalogue']),
        matched: z.string().describe('The operator’s name or pattern that matched, or the name the catalogue priced.'),
      })
      .nullable()
      .describe('null: priced nowhere, such a request costs nothing.'),
  }),
);

export const priceCatalogueSchema = builtOnce(() =>
  z.object({
    about: catalogueAbout().nullable().describe('null (and no models) when no catalogue is set.'),
    data: z.array(z.object({ model: z.string(), provider: z.string(), name: z.string().optional(), price: price() })),
  }),
);

export const settingsSchema = builtOnce(() =>
  z.object({
    data: z.array(z.object({ name: z.string(), section: z.string(), value: z.union([z.string(), z.number()]).nullable(), source: z.enum(['environment', 'default']), description: z.string() })),
    configFile: z.string().nullable(),
    configOwned: z
      .object({
        channels: z.record(z.string(), z.array(z.string())),
        keys: z.record(z.string(), z.array(z.string())),
        prices: z.record(z.string(), z.array(z.string())),
        budgets: z.record(z.string(), z.array(z.string())),
      })
      .describe(
        'Fields the config file declares, per channel and key name, the models whose price it declares (`["price"]`) and the budgets it declares by name (`["budget"]`): it rewrites them when it changes.',
      ),
  }),
);

export const channelTypesSchema = builtOnce(() =>
  z.object({
    data: z.array(
      z.object({
        type: z.string(),
        serves: z.array(z.enum(['chat', 'images', 'videos'])),
        needs: z
          .object({
            baseUrl: z.boolean(),
            baseUrlFrom: z.string().optional().describe('A setting that, when set, supplies the base URL instead (`preset` of openai-chat).'),
            credentials: z.boolean(),
            credentialsHint: z.string().optional().describe('What the key is for the type (its form, where it comes from); absent: a plain API key.'),
          })
          .describe('What a channel of the type must declare before it is stored: an absolute http(s) base URL, at least one credential.'),
        defaultModels: z.array(z.string()).optional().describe('The models a channel serves when it lists none; absent: the operator must list them.'),
        settings: z.record(z.string(), z.unknown()).describe('The JSON Schema of the `settings` a channel of the type takes: every key with its description and default; any other key is refused.'),
        impliedDefaults: z
          .object({ key: z.string(), byValue: z.record(z.string(), z.record(z.string(), z.unknown())) })
          .optional()
          .describe(
            "Defaults one setting's value implies (openai-chat's `preset`): with `settings[key]` set to a name of `byValue`, its entries replace the schema's defaults; a setting the channel gives wins.",
          ),
      }),
    ),
  }),
);
