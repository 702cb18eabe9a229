/**
 * The secret key of one store. Which key its credentials are sealed with is
 * recorded as a fingerprint in the settings table (never the key itself), and
 * every process that opens the store, gateway instance or CLI, checks its key
 * against it. A process whose key is missing or another one keeps running:
 * it seals nothing (a write that needs sealing is refused before anything is
 * written) and opens nothing (the channels concerned are broken, the others
 * serve). A fresh key is generated only for a store that holds no sealed
 * value and no fingerprint, so a data directory restored without its
 * secret.key is never given a new key over the loss.
 */
import type { Kysely } from 'kysely';
import { GatewayError } from '../core/errors.js';
import { fromJson, toJson } from './columns.js';
import { withExclusiveLock } from './exclusive-lock.js';
import { keyFilePath, SecretBox } from './secrets.js';
import type { AuditActor } from './audit-types.js';
import { storeWrites } from './store-writes.js';
import type { Database } from './schema.js';
import type { Store } from './types.js';

export const SECRET_KEY_FINGERPRINT_SETTING = 'secret_key_fingerprint';

/** Where a process finds its key: SWITCHYARD_SECRET_KEY when set, else `<dataDir>/secret.key`. */
export interface SecretKeySource {
  dataDir: string;
  envKey?: string;
}

export interface SecretKeyProblem {
  /** Short and without paths: shown for each channel it breaks, in the admin API and /readyz. */
  summary: string;
  /** The whole story with the fix, for the log and the CLI. */
  detail: string;
}

/** What writers of credentials need: a SecretBox itself, or a store's StoreSecrets (which may lack the key). */
export interface CredentialSealer {
  seal(plain: string): string;
  open(sealed: string): string;
  readonly problem?: SecretKeyProblem;
}

interface Resolved {
  box?: SecretBox;
  problem?: SecretKeyProblem;
}

export class StoreSecrets {
  private processKey?: SecretBox;

  private constructor(
    private readonly store: Store,
    private readonly source: SecretKeySource,
    private state: Resolved,
    private readonly onChange: (problem: SecretKeyProblem | undefined) => void,
  ) {}

  /** `onChange` hears of a problem that appears, changes or goes away after the open (the caller reports the first one). */
  static async open(store: Store, source: SecretKeySource, onChange: (problem: SecretKeyProblem | undefined) => void = () => {}): Promise<StoreSecrets> {
    return new StoreSecrets(store, source, await resolve(store, source), onChange);
  }

  /** Why this process can neither seal nor open credentials; undefined when it can. */
  get problem(): SecretKeyProblem | undefined {
    return this.state.problem;
  }

  /** The key, when it is the one the store is sealed with (rotation reads it). */
  get box(): SecretBox | undefined {
    return this.state.problem ? undefined : this.state.box;
  }

  get fromEnv(): boolean {
    return isSet(this.source.envKey);
  }

  seal(plain: string): string {
    const box = this.box;
    if (!box) throw new GatewayError('unavailable', `upstream credentials cannot be stored now, nothing was written: ${this.state.problem?.summary}`);
    return box.seal(plain);
  }

  open(sealed: string): string {
    const box = this.box;
    if (!box) throw new Error(this.state.problem?.summary);
    return box.open(sealed);
  }

  /** Without the store's key, a key of this process alone: what it seals (reasoning state) lasts as long as the process. */
  deriveKey(label: string): Buffer {
    const box = this.state.box ?? (this.processKey ??= SecretBox.generate().box);
    return box.deriveKey(label);
  }

  /**
   * Looks again when the store's fingerprint is not this key's (the key was
   * rotated, or restored while this process ran); true when the outcome changed.
   */
  async recheck(): Promise<boolean> {
    const recorded = await this.store.settings.get(SECRET_KEY_FINGERPRINT_SETTING);
    if (!this.state.problem && this.state.box && recorded === this.state.box.fingerprint()) return false;
    const before = this.state.problem?.detail;
    this.state = await resolve(this.store, this.source);
    if (this.state.problem?.detail === before) return false;
    this.onChange(this.state.problem);
    return true;
  }
}

const isSet = (value: string | undefined): value is string => value !== undefined && value !== '';

function missing(source: SecretKeySource): SecretKeyProblem {
  return {
    summary: 'the secret key is missing: restore secret.key in the data directory, or set SWITCHYARD_SECRET_KEY',
    detail:
      `the secret key is missing: ${keyFilePath(source.dataDir)} does not exist and SWITCHYARD_SECRET_KEY is not set, ` +
      'but this database holds credentials sealed with a key. Restore secret.key from the backup of this data directory, ' +
      'or set SWITCHYARD_SECRET_KEY to the key the credentials were sealed with; no new key is generated over them',
  };
}

function mismatch(source: SecretKeySource): SecretKeyProblem {
  const where = isSet(source.envKey) ? 'SWITCHYARD_SECRET_KEY' : keyFilePath(source.dataDir);
  return {
    summary: "the secret key is not the one these credentials were sealed with: use the gateway's secret.key or SWITCHYARD_SECRET_KEY",
    detail:
      `the secret key (${where}) is not the one this database's credentials were sealed with. ` +
      "Use the gateway's own key: run where its data directory is (or pass --data-dir with it), " +
      'or set SWITCHYARD_SECRET_KEY to the key the gateway uses',
  };
}

async function resolve(store: Store, source: SecretKeySource): Promise<Resolved> {
  const recorded = await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING);
  let box = isSet(source.envKey) ? await SecretBox.fromPassphrase(source.envKey) : await SecretBox.fromKeyFile(source.dataDir);
  if (!box) {
    if (recorded !== undefined || (await sealedValues(store)).length > 0) return { problem: missing(source) };
    box = await SecretBox.open(source.dataDir);
  }
  const fingerprint = box.fingerprint();
  if (recorded !== undefined) return recorded === fingerprint ? { box } : { box, problem: mismatch(source) };
  // A store sealed before fingerprints were kept: its key is the one that opens what it holds.
  const sealed = await sealedValues(store);
  if (sealed.length > 0 && !sealed.some((value) => opens(box, value))) return { box, problem: mismatch(source) };
  const adopted = await withExclusiveLock(store, SECRET_KEY_FINGERPRINT_SETTING, async () => {
    const again = await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING);
    if (again === undefined) await store.settings.set(SECRET_KEY_FINGERPRINT_SETTING, fingerprint);
    return again ?? fingerprint;
  });
  return adopted === fingerprint ? { box } : { box, problem: mismatch(source) };
}

async function sealedValues(store: Store): Promise<string[]> {
  return (await store.channels.list()).flatMap((record) => record.apiKeysEncrypted);
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

export interface ResealOutcome {
  /** Channels whose credentials were sealed again under the new key. */
  resealed: number;
  /** Names of the channels whose credentials could not be opened and were dropped (each left disabled). */
  forgotten: string[];
}

/**
 * Seals every channel's credentials again under `next` and records its
 * fingerprint, in one transaction: instances see the old key's store or the
 * new key's, never a mix. A value `current` cannot open stops it, naming the
 * channels, unless `forgetUnreadable`: then those credentials are dropped and
 * their channels disabled (the way out when the old key is lost for good).
 * The audit entry naming `actor` is written in the same transaction.
 */
export async function resealAll(store: Store, current: SecretBox | undefined, next: SecretBox, forgetUnreadable: boolean, actor: AuditActor): Promise<ResealOutcome> {
  return store.db.transaction().execute(async (trx) => {
    const rows: { id: string; name: string; api_keys: string; status: string }[] = await trx.selectFrom('channels').select(['id', 'name', 'api_keys', 'status']).orderBy('id').execute();
    const plans = rows.map((row) => {
      const sealed = fromJson<string[]>(row.api_keys) ?? [];
      const plain = current ? sealed.map((value) => (opens(current, value) ? current.open(value) : undefined)) : sealed.map(() => undefined);
      return { row, sealed, plain, readable: plain.every((value) => value !== undefined) };
    });
    const unreadable = plans.filter((plan) => !plan.readable).map((plan) => plan.row.name);
    if (unreadable.length > 0 && !forgetUnreadable) {
      throw new GatewayError(
        'invalid_request',
        `the credentials of ${unreadable.map((name) => `"${name}"`).join(', ')} cannot be opened with the current key, so nothing was changed. ` +
          'Set their apiKey again (PATCH /admin/channels/:id), delete them, or pass --forget-unreadable to drop those credentials and disable the channels',
      );
    }
    const now = Date.now();
    let resealed = 0;
    for (const plan of plans) {
      if (plan.sealed.length === 0) continue;
      const set = plan.readable ? { api_keys: toJson(plan.plain.map((value) => next.seal(value as string))), updated_at: now } : { api_keys: toJson([]), status: 'disabled', updated_at: now };
      await trx.updateTable('channels').set(set).where('id', '=', plan.row.id).execute();
      if (plan.readable) resealed++;
    }
    const writes = storeWrites(trx as unknown as Kysely<Database>);
    await writes.settings.set(SECRET_KEY_FINGERPRINT_SETTING, next.fingerprint());
    await writes.audit.record(actor, 'secret-key.rotate', 'secret-key', null, { id: SECRET_KEY_FINGERPRINT_SETTING, facts: { resealed, forgotten: unreadable } });
    return { resealed, forgotten: unreadable };
  });
}
