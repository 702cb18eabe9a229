/**
 * The declarative config file (YAML or JSON): channels, keys, prices, limits.
 * Unknown fields are errors, so a typo in operator config fails loudly and
 * names the field. Writing it to the store is `apply.ts`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { z } from 'zod';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';
import { channelProblem, IP_OR_CIDR_MESSAGE, isIpOrCidr } from './entity-rules.js';
import { builtOnce } from '../core/built-once.js';
import { configBudgetSchema } from './budget-schema.js';
import { pricePatternSchema, priceSchema } from './price-schema.js';
import { checkTeamsAndUsers, configTeamSchema, configUserSchema } from './team-config.js';
import { ssoSchema } from './sso-schema.js';
import { imageGenerationsSchema, videosSchema } from './media-schemas.js';

type YamlParse = typeof import('yaml').parse;

const requireFromHere = createRequire(import.meta.url);
let yamlParse: YamlParse | undefined;

/**
 * The YAML parser, required on first use: only a `.yaml` config needs it, and
 * in the bundle it was 115 kB of code that every start compiled (a JSON config,
 * or none, included). Through `createRequire`, the bundle leaves it to
 * node_modules (a production dependency).
 */
function parseYaml(text: string): unknown {
  yamlParse ??= (requireFromHere('yaml') as typeof import('yaml')).parse;
  return yamlParse(text);
}

const name = builtOnce(() => z.string().trim().min(1, { error: 'must not be empty' }));
const modelList = builtOnce(() => z.array(z.string().min(1, { error: 'must not be empty' })));

const ipOrCidr = builtOnce(() => z.string().refine(isIpOrCidr, { error: IP_OR_CIDR_MESSAGE }));

const epochMs = builtOnce(() =>
  z.union(
    [
      z.number().int().nonnegative(),
      z
        .string()
        // A time needs a zone: a bare local time would mean different instants on different hosts.
        .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/)
        .refine((text) => !Number.isNaN(Date.parse(text)))
        .transform((text) => Date.parse(text)),
    ],
    { error: 'must be an ISO 8601 date or date-time with a zone (Z or ±hh:mm), or epoch milliseconds' },
  ),
);

// Descriptions (`describe`) are rendered into docs/reference.md (npm run docs:reference).
const channelSchema = builtOnce(() =>
  z.strictObject({
    name: name().describe('Unique name; the file matches existing channels by it.'),
    type: name().describe('Upstream type: `simulator`, `anthropic`, `gemini`, `openai-responses`, `openai-chat`, `ig-proxy`, `openai-videos`, `wan` (see docs/providers.md).'),
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional()
      .describe(
        'The origin for `anthropic`, `gemini`, `ig-proxy`, `wan`; the `/v1` prefix for OpenAI-style types. Needed by every type but `simulator`, `gemini` and `openai-responses`, whose public address is the default.',
      ),
    apiKey: z
      .union([z.string().min(1), z.array(z.string().min(1))], {
        error: 'must be a non-empty string or a list of them',
      })
      .optional()
      .describe('The upstream credential, or a list rotated round-robin; required by every type but `simulator` and `openai-chat` (a keyless server). Encrypted at rest, never shown.'),
    models: modelList().optional().describe('Model names this channel serves: exact names, `*`, or `prefix*` (image actions: `ig_<action>`); required by every type but `simulator` (default `*`).'),
    modelMapping: z.record(z.string(), z.string().min(1)).optional().describe('Client model name to upstream model name; mapped names count as served.'),
    priority: z.number().int().default(0).describe('Higher priorities are tried first.'),
    weight: z.number().int().nonnegative().default(1).describe('Weighted random choice among channels of one priority.'),
    enabled: z.boolean().default(true).describe('`false`: declared but not routed to.'),
    settings: z.record(z.string(), z.unknown()).optional().describe('Type-specific settings (simulator knobs, image accounts, paths; see docs/providers.md).'),
  }),
);

const keySchema = builtOnce(() =>
  z.strictObject({
    name: name().describe('Unique name; the file matches existing keys by it.'),
    key: z.string().min(1, { error: 'must not be empty' }).describe('The secret clients send (stored hashed).'),
    quota: z.number().nonnegative().optional().describe('Spending limit in USD; unset: unlimited.'),
    models: modelList().optional().describe('Allowed models and image actions: names, `*` or `prefix*`; unset: all.'),
    allowIps: z.array(ipOrCidr()).optional().describe('Client addresses or CIDR ranges allowed to use the key; unset: any.'),
    rpm: z.number().int().positive().optional().describe('Requests per minute.'),
    tpm: z.number().int().positive().optional().describe('Tokens per minute.'),
    expiresAt: epochMs().optional().describe('Expiry: an ISO 8601 date or date-time with a zone, or epoch milliseconds.'),
    strictTranslation: z.boolean().optional().describe('Refuse what an upstream would ignore on a translated path (see docs/translation.md).'),
    team: name().optional().describe('The team that owns the key, by name (in `teams`, or stored already).'),
    user: name().optional().describe('The user the key is for, by email: a member of `team`, which is then required.'),
  }),
);

// Each wins over its environment variable.
const limitsSchema = builtOnce(() =>
  z.strictObject({
    maxBodyBytes: z.number().int().positive().optional().describe('As `SWITCHYARD_MAX_BODY_BYTES`.'),
    upstreamTimeoutMs: z.number().int().positive().optional().describe('As `SWITCHYARD_UPSTREAM_TIMEOUT_MS`.'),
    upstreamIdleMs: z.number().int().min(100).optional().describe('As `SWITCHYARD_UPSTREAM_IDLE_MS` (at least 100).'),
    maxUpstreamBodyBytes: z.number().int().positive().optional().describe('As `SWITCHYARD_MAX_UPSTREAM_BODY_BYTES`.'),
    maxUpstreamStreamBytes: z.number().int().positive().optional().describe('As `SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES`.'),
    maxUpstreamEventBytes: z.number().int().positive().optional().describe('As `SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES`.'),
    maxAttempts: z.number().int().positive().optional().describe('As `SWITCHYARD_MAX_ATTEMPTS`.'),
    cooldownSeconds: z.number().nonnegative().optional().describe('As `SWITCHYARD_COOLDOWN_SECONDS`.'),
  }),
);

// The numbers win over their environment variables; `SWITCHYARD_SESSION_AFFINITY` wins over `enabled`.
const sessionAffinitySchema = builtOnce(() =>
  z.strictObject({
    enabled: z.boolean().optional().describe('`false`: every turn is placed by priority and weight alone. Default: on. `SWITCHYARD_SESSION_AFFINITY` wins.'),
    idleSeconds: z.number().int().positive().optional().describe('As `SWITCHYARD_SESSION_AFFINITY_IDLE_SECONDS`.'),
    maxSessions: z.number().int().positive().optional().describe('As `SWITCHYARD_SESSION_AFFINITY_MAX_SESSIONS`.'),
  }),
);

export const configSchema = builtOnce(() =>
  z
    .strictObject({
      channels: z.array(channelSchema()).default([]).describe('Upstreams, created by name; later starts apply only the fields the file changed since it was last applied.'),
      users: z.array(configUserSchema()).default([]).describe('People, created by email; later starts apply only the fields the file changed.'),
      teams: z.array(configTeamSchema()).default([]).describe('Teams and their members, created by name; later starts apply only what the file changed.'),
      keys: z.array(keySchema()).default([]).describe('Client keys, created by name; later starts apply only the fields the file changed (a key disabled elsewhere stays disabled).'),
      prices: z
        .record(pricePatternSchema(), priceSchema())
        .default({})
        .describe(
          'Prices by model name or `prefix*`; quotas are in USD. Stored as the file’s (`source: config`) beside the admin API’s; a model’s price is applied again only when the file changes it, and a model the file stops pricing loses the file’s price.',
        ),
      budgets: z
        .array(configBudgetSchema())
        .default([])
        .describe('Budgets that reset, by name (see README, Budgets); applied again only when the file changes one, and a budget the file stops declaring is deleted.'),
      priceCatalogue: z
        .boolean()
        .optional()
        .describe(
          "`false`: the built-in price catalogue (@pydantic/genai-prices) prices nothing, so only `prices` and the admin API's prices count. Default: on, under the operator's prices. `SWITCHYARD_PRICE_CATALOGUE` wins.",
        ),
      limits: limitsSchema().optional().describe('Gateway limits; each wins over its environment variable.'),
      sessionAffinity: sessionAffinitySchema().optional().describe("Keeping a client session's turns on one channel and upstream key, for the upstream's prompt cache (see README, Session affinity)."),
      contextWindows: z
        .record(z.string().min(1), z.number().int().positive())
        .optional()
        .describe('Context window in tokens per model name or `prefix*` (Responses `truncation`); overrides the built-in table.'),
      notifyHook: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .optional()
        .describe('Callback address for tasks that name none (`SWITCHYARD_NOTIFY_HOOK` wins).'),
      taskTimeouts: z.record(z.string(), z.number().int().positive()).optional().describe('Seconds an unfinished task of a family (`images`, `videos`) may run before it fails and is refunded.'),
      videos: videosSchema().optional().describe('Video generation (family B).'),
      imageGenerations: imageGenerationsSchema().optional().describe('Image generation and editing (`/v1/images/*`).'),
      simulator: z
        .boolean()
        .optional()
        .describe(
          '`false`: the built-in simulator serves nothing, even with no channel. It serves only while no channel of a type other than `simulator` is stored, whatever this says (`true` beside one logs a warning: add a channel of type `simulator` listing the models instead). `SWITCHYARD_SIMULATOR` wins.',
        ),
      responsesWebSocket: z
        .boolean()
        .optional()
        .describe(
          '`false`: the Responses WebSocket transport on `GET /v1/responses` is off; the handshake is answered `426`, from which Codex falls back to HTTP at once. Default: on. `SWITCHYARD_RESPONSES_WEBSOCKET` wins.',
        ),
      sso: ssoSchema()
        .optional()
        .describe(
          "Single sign-on for the console: the provider's groups mapped to roles and teams (see README, Single sign-on). A mistake here turns sign-on off, named, and leaves the rest of the file applied.",
        ),
      trustedProxies: z.array(ipOrCidr()).optional().describe('Addresses or CIDR ranges of the reverse proxies whose `X-Forwarded-For` is believed (`SWITCHYARD_TRUSTED_PROXIES` wins).'),
    })
    .superRefine((config, ctx) => {
      flagDuplicates(
        config.channels.map((c) => c.name),
        'channels',
        'name',
        ctx,
      );
      flagDuplicates(
        config.keys.map((k) => k.name),
        'keys',
        'name',
        ctx,
      );
      flagDuplicates(
        config.budgets.map((b) => b.name),
        'budgets',
        'name',
        ctx,
      );
      flagDuplicates(
        config.keys.map((k) => k.key),
        'keys',
        'key',
        ctx,
      );
      checkTeamsAndUsers(config, ctx);
      config.channels.forEach((channel, index) => {
        const apiKeys = channel.apiKey === undefined ? [] : [channel.apiKey].flat();
        const problem = channelProblem({ ...channel, baseUrl: channel.baseUrl ?? '', apiKeys, settings: channel.settings ?? {} });
        // The baseUrl field's own schema already reports a bad URL (a missing one is the rules' to report).
        if (problem && !(problem.field === 'baseUrl' && channel.baseUrl !== undefined)) ctx.addIssue({ code: 'custom', path: ['channels', index, problem.field], message: problem.message });
      });
    }),
);

/** The file as applied; `ssoProblems` names what was wrong in its `sso` section, which is then left out. */
export type ConfigFile = z.output<ReturnType<typeof configSchema>> & { ssoProblems?: string[] };
export type ConfigChannel = ConfigFile['channels'][number];
export type ConfigKey = ConfigFile['keys'][number];
export type ConfigPrice = z.output<ReturnType<typeof priceSchema>>;
export type ConfigBudget = ConfigFile['budgets'][number];

export class ConfigFileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid config file ${source}:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigFileError';
  }
}

export function loadConfigFile(path: string): ConfigFile {
  const extension = extname(path).toLowerCase();
  if (extension !== '.yaml' && extension !== '.yml' && extension !== '.json') {
    throw new ConfigFileError(path, [`unsupported extension "${extension}": use .yaml, .yml or .json`]);
  }
  return parseConfigText(readFileSync(path, 'utf8'), extension === '.json' ? 'json' : 'yaml', path);
}

export function parseConfigText(text: string, format: 'yaml' | 'json', source = '<config>'): ConfigFile {
  let value: unknown;
  try {
    value = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigFileError(source, [`not valid ${format.toUpperCase()}: ${(error as Error).message}`]);
  }
  if (exceedsJsonDepth(value)) throw new ConfigFileError(source, [`nests objects and lists more than ${MAX_JSON_DEPTH} levels deep`]);
  // An empty file declares nothing.
  const result = configSchema().safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, value));
  // A mistake in the sso section turns sign-on off, not the gateway: the rest is applied without it.
  if (result.error.issues.every((issue) => issue.path[0] === 'sso')) {
    const { sso: _left, ...rest } = value as Record<string, unknown>;
    const again = configSchema().safeParse(rest);
    if (again.success) return { ...again.data, ssoProblems: problems };
  }
  throw new ConfigFileError(source, problems);
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const where = formatPath(issue.path) + channelNamed(issue.path, value);
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((key) => formatPath([...issue.path, key]) + channelNamed([...issue.path, key], value));
    return `${fields.join(', ')}: unknown field${fields.length > 1 ? 's' : ''}`;
  }
  const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
  return `${where || '(top level)'}: ${missing ? 'required' : issue.message}`;
}

/** ` (channel "name")` for a problem inside a channel that has a name: the index alone is hard to find in a long file. */
function channelNamed(path: PropertyKey[], value: unknown): string {
  if (path[0] !== 'channels' || typeof path[1] !== 'number' || path.length < 3 || path[2] === 'name') return '';
  const channels = (value as { channels?: unknown } | null | undefined)?.channels;
  const name = Array.isArray(channels) ? (channels[path[1]] as { name?: unknown } | null | undefined)?.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? ` (channel ${JSON.stringify(name)})` : '';
}

function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function flagDuplicates(values: string[], list: string, field: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) {
      const shown = field === 'key' ? 'the same secret as an earlier key' : `"${value}" is declared twice`;
      ctx.addIssue({ code: 'custom', path: [list, index, field], message: `duplicate: ${shown}` });
    }
    seen.add(value);
  });
}
