import type { Kysely, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { conflict, fromJson, isUniqueViolation, toJson, toNullableNumber, toNumber } from './columns.js';
import { isWellFormedId, newId } from './ids.js';
import type { Database, KeysTable } from './schema.js';
import type { KeyHoldings } from './team-types.js';
import type { KeyPatch, KeyRecord, KeyRepository, KeyStatus, NewKey } from './types.js';

function toRecord(row: Selectable<KeysTable>): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    status: row.status as KeyStatus,
    expiresAt: toNullableNumber(row.expires_at),
    quota: toNullableNumber(row.quota),
    used: toNumber(row.used),
    models: fromJson<string[]>(row.models),
    allowIps: fromJson<string[]>(row.allow_ips),
    rpm: toNullableNumber(row.rpm),
    tpm: toNullableNumber(row.tpm),
    strictTranslation: toNumber(row.strict_translation) === 1,
    teamId: row.team_id ?? null,
    userId: row.user_id ?? null,
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

/** Keys per UPDATE statement: three parameters each, well under both engines' limits. */
const addUsedChunk = 500;

const jsonOrNull = (value: string[] | null): string | null => (value === null ? null : toJson(value));

function toColumns(patch: KeyPatch): Updateable<KeysTable> {
  const set: Updateable<KeysTable> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.keyHash !== undefined) set.key_hash = patch.keyHash;
  if (patch.keyPrefix !== undefined) set.key_prefix = patch.keyPrefix;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.expiresAt !== undefined) set.expires_at = patch.expiresAt;
  if (patch.quota !== undefined) set.quota = patch.quota;
  if (patch.models !== undefined) set.models = jsonOrNull(patch.models);
  if (patch.allowIps !== undefined) set.allow_ips = jsonOrNull(patch.allowIps);
  if (patch.rpm !== undefined) set.rpm = patch.rpm;
  if (patch.tpm !== undefined) set.tpm = patch.tpm;
  if (patch.strictTranslation !== undefined) set.strict_translation = patch.strictTranslation ? 1 : 0;
  if (patch.teamId !== undefined) set.team_id = patch.teamId;
  if (patch.userId !== undefined) set.user_id = patch.userId;
  return set;
}

/** A name or secret hash that is already taken. */
function clash(error: unknown, name: string | undefined): unknown {
  if (!isUniqueViolation(error)) return error;
  const message = String((error as Error).message ?? '');
  if (message.includes('key_hash')) return conflict('a key with this secret', error);
  return conflict(`a key named "${name ?? ''}"`, error);
}

export class KyselyKeyRepository implements KeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(key: NewKey): Promise<KeyRecord> {
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('keys')
        .values({
          id: newId('key'),
          name: key.name,
          key_hash: key.keyHash,
          key_prefix: key.keyPrefix,
          status: key.status ?? 'active',
          expires_at: key.expiresAt ?? null,
          quota: key.quota ?? null,
          used: 0,
          models: jsonOrNull(key.models ?? null),
          allow_ips: jsonOrNull(key.allowIps ?? null),
          rpm: key.rpm ?? null,
          tpm: key.tpm ?? null,
          strict_translation: key.strictTranslation ? 1 : 0,
          team_id: key.teamId ?? null,
          user_id: key.userId ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    } catch (error) {
      throw clash(error, key.name);
    }
  }

  async get(id: string): Promise<KeyRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async getByName(name: string): Promise<KeyRecord | undefined> {
    const row = await this.db.selectFrom('keys').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  /** The key a client presents, with whether its user is disabled (a key of a disabled person serves nobody). */
  async getByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('keys')
      .selectAll('keys')
      .select((eb) => eb.selectFrom('users').select('users.status').whereRef('users.id', '=', 'keys.user_id').as('owner_status'))
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const record = toRecord(row);
    if (row.owner_status === 'disabled') record.ownerDisabled = true;
    return record;
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.db.selectFrom('keys').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const set = toColumns(patch);
    set.updated_at = Date.now();
    try {
      const row = await this.db.updateTable('keys').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toRecord(row);
    } catch (error) {
      throw clash(error, patch.name);
    }
  }

  async addUsed(amounts: Map<string, number>): Promise<void> {
    const entries = [...amounts].filter(([, amount]) => amount !== 0);
    if (entries.length === 0) return;
    if (entries.length <= addUsedChunk) return this.addUsedOnce(this.db, entries);
    // More keys than one statement takes: still all or nothing.
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < entries.length; i += addUsedChunk) {
        await this.addUsedOnce(trx, entries.slice(i, i + addUsedChunk));
      }
    });
  }

  /** One UPDATE for many keys: `used = used + CASE id WHEN … THEN … END`. */
  private async addUsedOnce(db: Kysely<Database>, entries: [string, number][]): Promise<void> {
    // The cast keeps PostgreSQL from typing the untyped parameters as text.
    const cases = sql.join(
      entries.map(([id, amount]) => sql`when ${id} then cast(${amount} as double precision)`),
      sql` `,
    );
    await db
      .updateTable('keys')
      .set({ used: sql`used + case id ${cases} else 0 end` })
      .where(
        'id',
        'in',
        entries.map(([id]) => id),
      )
      .execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toNumber(row.n);
  }

  async holdings(owner: { teamId: string } | { userId: string }): Promise<KeyHoldings> {
    const row = await this.db
      .selectFrom('keys')
      .select([sql<number>`COUNT(*)`.as('keys'), sql<number>`SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END)`.as('active_keys'), sql<number>`SUM(used)`.as('used')])
      .where('teamId' in owner ? 'team_id' : 'user_id', '=', 'teamId' in owner ? owner.teamId : owner.userId)
      .executeTakeFirstOrThrow();
    return { keys: toNumber(row.keys), activeKeys: toNumber(row.active_keys), used: toNumber(row.used) };
  }
}
