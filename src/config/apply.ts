/**
 * Writes the config file's users and teams (apply-teams.ts), channels, keys and prices (apply-prices.ts) to
 * the store, respecting the operator: each field the file declares is
 * applied only when the file's value changed since it was last applied (a
 * fingerprint per field is kept in the `config.applied` setting, never a
 * secret). So re-applying an unchanged file changes nothing, and a restart
 * or a new replica never undoes what an operator changed through the admin
 * API (a channel disabled, a weight tuned, a record deleted). A field the
 * file changes is applied, whatever its stored value. Instances starting
 * together apply under one cluster-wide lock. Each record written is audited
 * (actor `config-file`) in the transaction that writes it.
 */
import type { AuditActor } from '../storage/audit-types.js';
import type { CredentialSealer } from '../storage/store-secrets.js';
import { withExclusiveLock } from '../storage/exclusive-lock.js';
import type { ChannelPatch, ChannelRecord, KeyPatch, KeyRecord, NewChannel, NewKey, Store } from '../storage/types.js';
import { applyConfigBudgets, type BudgetFingerprints } from './apply-budgets.js';
import { applyConfigPrices, type PriceFingerprints } from './apply-prices.js';
import { applyConfigTeams, keyOwnerIds, type TeamsApplied } from './apply-teams.js';
import { declaredModels } from './entity-rules.js';
import { fingerprint, sameJson } from './fingerprints.js';
import type { ConfigChannel, ConfigFile, ConfigKey } from './file.js';

export const APPLIED_SETTING = 'config.applied';

/** Per entity name, per declared field, the fingerprint of the value the file last declared. */
type Fingerprints = Record<string, string>;
interface AppliedRecord extends Partial<TeamsApplied> {
  channels: Record<string, Fingerprints>;
  keys: Record<string, Fingerprints>;
  prices: PriceFingerprints;
  budgets?: BudgetFingerprints;
}

/** Who the audit log says made the file's changes: the file, by its path when known. */
export function configFileActor(path: string | undefined): AuditActor {
  return { kind: 'config-file', id: path ?? null, name: 'config file', requestId: null, clientIp: null };
}

export async function applyConfigFile(
  store: Store,
  secrets: CredentialSealer,
  config: ConfigFile,
  hashKey: (secret: string) => string,
  path?: string,
): Promise<{ channels: number; keys: number; prices: number; teams: number; budgets: number }> {
  const actor = configFileActor(path);
  return withExclusiveLock(store, APPLIED_SETTING, async () => {
    const last = await readApplied(store);
    const next: AppliedRecord = { channels: {}, keys: {}, prices: {} };
    // Before the keys, which name their team and user.
    const teams = await applyConfigTeams(store, config, last);
    if (config.users.length > 0) next.users = teams.applied.users;
    if (config.teams.length > 0) next.teams = teams.applied.teams;
    let channels = 0;
    for (const [index, channel] of config.channels.entries()) {
      const label = `channels[${index}] "${channel.name}"`;
      const applied = await applyEntry(label, () => applyChannel(store, secrets, channel, last.channels[channel.name], actor));
      next.channels[channel.name] = applied.fingerprints;
      if (applied.changed) channels++;
    }
    let keys = 0;
    for (const [index, key] of config.keys.entries()) {
      const applied = await applyEntry(`keys[${index}] "${key.name}"`, () => applyKey(store, key, hashKey, last.keys[key.name], actor));
      next.keys[key.name] = applied.fingerprints;
      if (applied.changed) keys++;
    }
    const prices = await applyConfigPrices(store, config.prices, last.prices, actor);
    next.prices = prices.fingerprints;
    // After the keys: a key budget names a key the file may have just created.
    const budgets = await applyConfigBudgets(store, config.budgets, last.budgets ?? {}, actor);
    // Kept only when there are some, so a file without budgets leaves the record as it was.
    if (Object.keys(budgets.fingerprints).length > 0) next.budgets = budgets.fingerprints;
    // In a transaction like every other write here: on SQLite it waits for the write lock without holding the event loop.
    if (JSON.stringify(next) !== JSON.stringify(last)) await store.transaction((tx) => tx.settings.set(APPLIED_SETTING, JSON.stringify(next)));
    return { channels, keys, prices: prices.changed, teams: teams.changed, budgets: budgets.changed };
  });
}

export interface ConfigOwned {
  channels: Record<string, string[]>;
  keys: Record<string, string[]>;
  /** Models whose price the file declares: `{ model: ['price'] }`. */
  prices: Record<string, string[]>;
  /** Budgets the file declares, by name: `{ name: ['budget'] }` (it rewrites the whole budget when its declaration changes). */
  budgets: Record<string, string[]>;
}

/** Which fields of which keys, channels and prices the config file owns (it last declared them), by name. */
export async function configOwnedFields(store: Store): Promise<ConfigOwned> {
  const applied = await readApplied(store);
  const fields = (entities: Record<string, Fingerprints>) => Object.fromEntries(Object.entries(entities).map(([name, prints]) => [name, Object.keys(prints)]));
  const whole = (names: Record<string, unknown>, field: string) => Object.fromEntries(Object.keys(names).map((name) => [name, [field]]));
  return { channels: fields(applied.channels), keys: fields(applied.keys), prices: whole(applied.prices, 'price'), budgets: whole(applied.budgets ?? {}, 'budget') };
}

interface Applied {
  changed: boolean;
  fingerprints: Fingerprints;
}

async function readApplied(store: Store): Promise<AppliedRecord> {
  const text = await store.settings.get(APPLIED_SETTING);
  try {
    const parsed = text === undefined ? undefined : (JSON.parse(text) as Partial<AppliedRecord>);
    return {
      channels: parsed?.channels ?? {},
      keys: parsed?.keys ?? {},
      prices: parsed?.prices ?? {},
      users: parsed?.users,
      teams: parsed?.teams,
      ...(parsed?.budgets ? { budgets: parsed.budgets } : {}),
    };
  } catch {
    return { channels: {}, keys: {}, prices: {} };
  }
}

async function applyEntry(label: string, apply: () => Promise<Applied>): Promise<Applied> {
  try {
    return await apply();
  } catch (error) {
    throw new Error(`config ${label}: ${(error as Error).message}`, { cause: error });
  }
}

async function applyChannel(store: Store, secrets: CredentialSealer, channel: ConfigChannel, last: Fingerprints | undefined, actor: AuditActor): Promise<Applied> {
  const apiKeys = typeof channel.apiKey === 'string' ? [channel.apiKey] : (channel.apiKey ?? []);
  const declared: Omit<NewChannel, 'apiKeysEncrypted'> = {
    name: channel.name,
    type: channel.type,
    baseUrl: channel.baseUrl ?? '',
    models: declaredModels(channel.type, channel.models),
    modelMapping: channel.modelMapping ?? {},
    priority: channel.priority,
    weight: channel.weight,
    status: channel.enabled ? 'enabled' : 'disabled',
    settings: channel.settings ?? {},
  };
  const fingerprints = { ...fingerprintAll(declared), apiKeys: fingerprint(apiKeys) };
  // Without the store's secret key nothing can be sealed: the entry waits, as last applied, for a start that has the key.
  if (secrets.problem && apiKeys.length > 0) return { changed: false, fingerprints: last ?? {} };
  let existing = await store.channels.getByName(channel.name);
  if (!existing) {
    // Deleted by the operator after the file created it: stays deleted until the file changes it.
    if (last && sameFingerprints(last, fingerprints)) return { changed: false, fingerprints };
    const created = await createTolerating(() =>
      store.transaction(async (tx) => {
        const record = await tx.channels.create({ ...declared, apiKeysEncrypted: apiKeys.map((key) => secrets.seal(key)) });
        await tx.audit.record(actor, 'channel.create', 'channel', null, record);
      }),
    );
    if (created) return { changed: true, fingerprints };
    existing = await store.channels.getByName(channel.name);
    if (!existing) throw new Error('the channel was created and deleted by another instance meanwhile');
  }
  const patch = changedFields(existing, declared, fingerprints, last) as ChannelPatch;
  const stored = openAll(secrets, existing.apiKeysEncrypted);
  // Credentials sealed under a key no longer available are useless: the file's are sealed again.
  const keysChanged = stored === undefined || (last?.apiKeys !== fingerprints.apiKeys && !sameJson(stored, apiKeys));
  if (keysChanged) patch.apiKeysEncrypted = apiKeys.map((key) => secrets.seal(key));
  if (Object.keys(patch).length === 0) return { changed: false, fingerprints };
  await store.transaction(async (tx) => {
    const before = await tx.channels.get(existing.id);
    const after = await tx.channels.update(existing.id, patch);
    if (before && after) await tx.audit.record(actor, 'channel.update', 'channel', before, after);
  });
  return { changed: true, fingerprints };
}

async function applyKey(store: Store, key: ConfigKey, hashKey: (secret: string) => string, last: Fingerprints | undefined, actor: AuditActor): Promise<Applied> {
  const declared: Required<Omit<NewKey, 'status'>> = {
    name: key.name,
    keyHash: hashKey(key.key),
    keyPrefix: key.key.slice(0, 8),
    expiresAt: key.expiresAt ?? null,
    quota: key.quota ?? null,
    models: key.models ?? null,
    allowIps: key.allowIps ?? null,
    rpm: key.rpm ?? null,
    tpm: key.tpm ?? null,
    strictTranslation: key.strictTranslation ?? false,
    ...(await keyOwnerIds(store, key)),
  };
  const fingerprints = fingerprintAll(declared);
  let existing = await store.keys.getByName(key.name);
  if (!existing) {
    if (last && sameFingerprints(last, fingerprints)) return { changed: false, fingerprints };
    if (
      await createTolerating(
        () =>
          store.transaction(async (tx) => {
            const record = await tx.keys.create(declared);
            await tx.audit.record(actor, 'key.create', 'key', null, record);
          }),
        () => store.keys.getByName(key.name),
      )
    )
      return { changed: true, fingerprints };
    existing = await store.keys.getByName(key.name);
    if (!existing) throw new Error('the key was created and deleted by another instance meanwhile');
  }
  const patch = changedFields(existing, declared, fingerprints, last) as KeyPatch;
  if (Object.keys(patch).length === 0) return { changed: false, fingerprints };
  await store.transaction(async (tx) => {
    const before = await tx.keys.get(existing.id);
    const after = await tx.keys.update(existing.id, patch);
    if (before && after) await tx.audit.record(actor, 'key.update', 'key', before, after);
  });
  return { changed: true, fingerprints };
}

/**
 * Creates a record; false when another instance created the same name first
 * (SQLite has no cross-process lock here). Any other refusal is thrown.
 */
async function createTolerating(create: () => Promise<unknown>, byName?: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error) {
    if (!/already exists/.test((error as Error).message)) throw error;
    // A key refused for its secret (not its name) is the operator's clash, not a race.
    if (byName && (await byName()) === undefined) throw error;
    return false;
  }
}

/** Fields whose declared value differs from the stored one and changed in the file since it was last applied. */
function changedFields<T extends object>(existing: ChannelRecord | KeyRecord, declared: T, fingerprints: Fingerprints, last: Fingerprints | undefined): Partial<T> {
  const patch: Partial<T> = {};
  for (const field of Object.keys(declared) as (keyof T & string)[]) {
    if (last && last[field] === fingerprints[field]) continue;
    const wanted = declared[field];
    if (!sameJson((existing as unknown as T)[field], wanted)) patch[field] = wanted;
  }
  return patch;
}

function fingerprintAll(declared: object): Fingerprints {
  const out: Fingerprints = {};
  for (const [field, value] of Object.entries(declared)) out[field] = fingerprint(value);
  return out;
}

function sameFingerprints(a: Fingerprints, b: Fingerprints): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((key) => a[key] === b[key]);
}

/** Credentials sealed under a key that is no longer available count as different. */
function openAll(secrets: CredentialSealer, sealed: string[]): string[] | undefined {
  try {
    return sealed.map((value) => secrets.open(value));
  } catch {
    return undefined;
  }
}
