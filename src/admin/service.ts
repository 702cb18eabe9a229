/**
 * Admin operations on keys and channels, shared by the admin HTTP API and
 * the CLI. Inputs are validated here; outputs never carry secrets: a key's
 * secret is returned once, at creation, and upstream credentials never.
 * Each change is written with its audit entry in one transaction, naming
 * the actor the caller gives (storage/audit-log.ts).
 */
import { z } from 'zod';
import { channelProblem, declaredModels, IP_OR_CIDR_MESSAGE, isIpOrCidr, type ChannelShape } from '../config/entity-rules.js';
import { GatewayError } from '../core/errors.js';
import { hasControlCharacter } from '../core/model-name.js';
import { generateKeySecret, hashKey } from '../http/auth.js';
import type { CredentialSealer } from '../storage/store-secrets.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { AuditAction, ChannelPatch, ChannelRecord, KeyPatch, KeyRecord, Store } from '../storage/types.js';

export { publicChannel, publicKey } from '../storage/public-views.js';
import { builtOnce } from '../core/built-once.js';
import { checkKeyOwner, ownerAfter } from './key-owner.js';

const epochOrIso = builtOnce(() => z.union([z.number().int().nonnegative(), z.string().datetime({ offset: true })]).transform((value) => (typeof value === 'number' ? value : Date.parse(value))));
const cidrList = builtOnce(() => z.array(z.string().refine(isIpOrCidr, IP_OR_CIDR_MESSAGE)));
// Names end up in log lines and PostgreSQL text columns: no control characters (NUL included).
const recordName = builtOnce(() =>
  z
    .string()
    .min(1)
    .max(128)
    .refine((text) => !hasControlCharacter(text), 'must not contain control characters'),
);

// Descriptions (`describe`) are rendered into docs/admin-api.md (npm run docs:reference).
export const keyInputSchema = builtOnce(() =>
  z
    .object({
      name: recordName().describe('Unique name (1-128 characters, no control characters).'),
      key: z.string().min(8).max(256).optional().describe('The secret clients will send (8-256 characters); absent: one is generated. Shown once, in the answer to the create.'),
      status: z.enum(['active', 'disabled']).optional().describe('`disabled` refuses the key (default `active`).'),
      quota: z.number().nonnegative().nullable().optional().describe('Spending limit in USD; null or absent: unlimited.'),
      models: z.array(z.string().min(1)).nullable().optional().describe('Allowed models and image actions: names, `*` or `prefix*`; null or absent: all.'),
      allowIps: cidrList().nullable().optional().describe('Client addresses or CIDR ranges allowed to use the key; null or absent: any.'),
      rpm: z.number().int().positive().nullable().optional().describe('Requests per minute; null or absent: no limit.'),
      tpm: z.number().int().positive().nullable().optional().describe('Tokens per minute; null or absent: no limit.'),
      expiresAt: epochOrIso().nullable().optional().describe('Expiry: epoch milliseconds or an ISO 8601 date-time with an offset; null or absent: never.'),
      strictTranslation: z.boolean().optional().describe('Refuse what an upstream would ignore on a translated path (see docs/translation.md).'),
      teamId: z.string().min(1).max(128).nullable().optional().describe('The team that owns the key; its usage and spend roll up to the team. Null or absent: no team.'),
      userId: z.string().min(1).max(128).nullable().optional().describe('The user the key is for, a member of `teamId` (which is then required); null or absent: the team’s key.'),
    })
    .strict(),
);

export const keyPatchSchema = builtOnce(() => keyInputSchema().partial().strict());

const channelFields = builtOnce(() => ({
  name: recordName().describe('Unique name (1-128 characters, no control characters).'),
  type: z.string().min(1).describe('Upstream type: `simulator`, `anthropic`, `gemini`, `openai-responses`, `openai-chat`, `ig-proxy`, `openai-videos`, `wan` (see docs/providers.md).'),
  baseUrl: z
    .string()
    .describe(
      'The origin for `anthropic`, `gemini`, `ig-proxy`, `wan`; the `/v1` prefix for OpenAI-style types; needed by every type but `simulator`, `gemini` and `openai-responses` (whose public address is the default when empty).',
    ),
  apiKey: z
    .union([z.string(), z.array(z.string())])
    .describe(
      'The upstream credential, or a list rotated round-robin; required by every type but `simulator` and `openai-chat` (a keyless server), never empty. Encrypted at rest, never returned (answers show `apiKeyCount`).',
    ),
  models: z.array(z.string().min(1)).describe('Model names this channel serves: exact names, `*`, or `prefix*` (image actions: `ig_<action>`); required by every type but `simulator` (default `*`).'),
  modelMapping: z.record(z.string(), z.string()).describe('Client model name to upstream model name; mapped names count as served.'),
  priority: z.number().int().describe('Higher priorities are tried first.'),
  weight: z.number().int().nonnegative().describe('Weighted random choice among channels of one priority.'),
  enabled: z.boolean().describe('`false`: kept but not routed to.'),
  settings: z.record(z.string(), z.unknown()).describe('Type-specific settings (see docs/providers.md).'),
}));

export const channelInputSchema = builtOnce(() =>
  z
    .object({
      ...channelFields(),
      baseUrl: channelFields().baseUrl.default(''),
      apiKey: channelFields().apiKey.optional(),
      models: channelFields().models.optional(),
      modelMapping: channelFields().modelMapping.default({}),
      priority: channelFields().priority.default(0),
      weight: channelFields().weight.default(1),
      enabled: channelFields().enabled.default(true),
      settings: channelFields().settings.default({}),
    })
    .strict(),
);

export const channelPatchSchema = builtOnce(() => z.object(channelFields()).partial().strict());

/** Refuses a channel that would fail when used: unknown type, a missing or bad base URL, missing or empty credentials, no models, settings its type rejects. */
function checkChannel(channel: ChannelShape): void {
  const problem = channelProblem(channel);
  if (problem) throw new GatewayError('invalid_request', `${problem.field}: ${problem.message}`, { param: problem.field });
}

export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.join('.');
  throw new GatewayError('invalid_request', where ? `${where}: ${issue.message}` : issue.message, { param: where });
}

function asList(apiKey: string | string[] | undefined): string[] {
  if (apiKey === undefined) return [];
  return Array.isArray(apiKey) ? apiKey : [apiKey];
}

export class AdminService {
  constructor(
    private readonly store: Store,
    private readonly secrets: CredentialSealer,
  ) {}

  async createKey(input: unknown, actor: AuditActor): Promise<{ record: KeyRecord; secret: string }> {
    const data = parseInput(keyInputSchema(), input);
    await checkKeyOwner(this.store, ownerAfter(undefined, data));
    const secret = data.key ?? generateKeySecret();
    const { key: _secret, ...fields } = data;
    return this.store.transaction(async (tx) => {
      if (await tx.keys.getByName(data.name)) {
        throw new GatewayError('invalid_request', `a key named "${data.name}" already exists`, { status: 409, param: 'name' });
      }
      const record = await tx.keys.create({ ...fields, keyHash: hashKey(secret), keyPrefix: secret.slice(0, 8) });
      await tx.audit.record(actor, 'key.create', 'key', null, record);
      return { record, secret };
    });
  }

  /** `action` names the change in the audit log: `key.disable` for DELETE /admin/keys/:id and the CLI's disable. */
  async updateKey(id: string, input: unknown, actor: AuditActor, action: AuditAction<'key'> = 'key.update'): Promise<KeyRecord> {
    const data = parseInput(keyPatchSchema(), input);
    const { key: secret, ...fields } = data;
    const patch: KeyPatch = { ...fields };
    if (secret !== undefined) Object.assign(patch, { keyHash: hashKey(secret), keyPrefix: secret.slice(0, 8) });
    if (patch.teamId !== undefined || patch.userId !== undefined) await checkKeyOwner(this.store, ownerAfter(await this.getKey(id), patch));
    return this.store.transaction(async (tx) => {
      const before = await tx.keys.get(id);
      const record = before && (await tx.keys.update(id, patch));
      if (!record) throw new GatewayError('not_found', `no key with id "${id}"`);
      await tx.audit.record(actor, action, 'key', before, record);
      return record;
    });
  }

  async getKey(id: string): Promise<KeyRecord> {
    const record = await this.store.keys.get(id);
    if (!record) throw new GatewayError('not_found', `no key with id "${id}"`);
    return record;
  }

  async createChannel(input: unknown, actor: AuditActor): Promise<ChannelRecord> {
    const data = parseInput(channelInputSchema(), input);
    const { apiKey, enabled, ...fields } = data;
    const baseUrl = fields.baseUrl.replace(/\/+$/, '');
    const apiKeys = asList(apiKey);
    if (await this.store.channels.getByName(data.name)) {
      throw new GatewayError('invalid_request', `a channel named "${data.name}" already exists`, { status: 409, param: 'name' });
    }
    checkChannel({ ...fields, baseUrl, apiKeys });
    const channel = {
      ...fields,
      baseUrl,
      models: declaredModels(fields.type, fields.models),
      status: enabled ? ('enabled' as const) : ('disabled' as const),
      apiKeysEncrypted: apiKeys.map((plain) => this.secrets.seal(plain)),
    };
    return this.store.transaction(async (tx) => {
      const record = await tx.channels.create(channel);
      await tx.audit.record(actor, 'channel.create', 'channel', null, record);
      return record;
    });
  }

  async updateChannel(id: string, input: unknown, actor: AuditActor): Promise<ChannelRecord> {
    const data = parseInput(channelPatchSchema(), input);
    const { apiKey, enabled, ...fields } = data;
    const patch: ChannelPatch = { ...fields };
    if (fields.baseUrl !== undefined) patch.baseUrl = fields.baseUrl.replace(/\/+$/, '');
    if (enabled !== undefined) patch.status = enabled ? 'enabled' : 'disabled';
    const apiKeys = apiKey === undefined ? undefined : asList(apiKey);
    if (apiKeys !== undefined) patch.apiKeysEncrypted = apiKeys.map((plain) => this.secrets.seal(plain));
    // The channel as it would be after the change must pass, not just the fields changed (stored credentials are never empty).
    const current = await this.getChannel(id);
    checkChannel({
      name: patch.name ?? current.name,
      type: patch.type ?? current.type,
      baseUrl: patch.baseUrl ?? current.baseUrl,
      apiKeys: apiKeys ?? current.apiKeysEncrypted,
      models: patch.models ?? current.models,
      settings: patch.settings ?? current.settings,
    });
    return this.store.transaction(async (tx) => {
      const before = await tx.channels.get(id);
      const record = before && (await tx.channels.update(id, patch));
      if (!record) throw new GatewayError('not_found', `no channel with id "${id}"`);
      await tx.audit.record(actor, 'channel.update', 'channel', before, record);
      return record;
    });
  }

  async deleteChannel(id: string, actor: AuditActor): Promise<{ id: string; deleted: true }> {
    return this.store.transaction(async (tx) => {
      const before = await tx.channels.get(id);
      if (!before || !(await tx.channels.delete(id))) throw new GatewayError('not_found', `no channel with id "${id}"`);
      await tx.audit.record(actor, 'channel.delete', 'channel', before, null);
      return { id, deleted: true as const };
    });
  }

  async getChannel(id: string): Promise<ChannelRecord> {
    const record = await this.store.channels.get(id);
    if (!record) throw new GatewayError('not_found', `no channel with id "${id}"`);
    return record;
  }
}
