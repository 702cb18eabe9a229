/** Personal admin tokens (see admin-token-types.ts): the hash goes in, records without it come out. */
import type { Kysely, Selectable } from 'kysely';
import { toNullableNumber, toNumber } from './columns.js';
import { isWellFormedId, newId } from './ids.js';
import type { AdminTokensTable, Database } from './schema.js';
import type { AdminTokenHolder, AdminTokenRecord, AdminTokenRepository, NewAdminToken } from './admin-token-types.js';
import type { UserRole, UserStatus } from './team-types.js';

type TokenColumns = Omit<Selectable<AdminTokensTable>, 'token_hash'>;

const TOKEN_COLUMNS = ['id', 'user_id', 'name', 'token_prefix', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

function toToken(row: TokenColumns): AdminTokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prefix: row.token_prefix,
    createdAt: toNumber(row.created_at),
    expiresAt: toNullableNumber(row.expires_at),
    lastUsedAt: toNullableNumber(row.last_used_at),
    revokedAt: toNullableNumber(row.revoked_at),
  };
}

export class KyselyAdminTokenRepository implements AdminTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(token: NewAdminToken): Promise<AdminTokenRecord> {
    const row = await this.db
      .insertInto('admin_tokens')
      .values({
        id: newId('pat'),
        user_id: token.userId,
        name: token.name,
        token_hash: token.tokenHash,
        token_prefix: token.prefix,
        created_at: Date.now(),
        expires_at: token.expiresAt ?? null,
        last_used_at: null,
        revoked_at: null,
      })
      .returning(TOKEN_COLUMNS)
      .executeTakeFirstOrThrow();
    return toToken(row);
  }

  async get(id: string): Promise<AdminTokenRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('admin_tokens').select(TOKEN_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toToken(row);
  }

  async findByHash(tokenHash: string): Promise<AdminTokenHolder | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 't.name', 't.token_prefix', 't.created_at', 't.expires_at', 't.last_used_at', 't.revoked_at'])
      .select(['u.email', 'u.name as user_name', 'u.status', 'u.external_id', 'u.role', 'u.created_at as user_created_at', 'u.updated_at as user_updated_at'])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      token: toToken(row),
      user: {
        id: row.user_id,
        email: row.email,
        name: row.user_name,
        status: row.status as UserStatus,
        externalId: row.external_id,
        role: (row.role as UserRole | null) ?? null,
        createdAt: toNumber(row.user_created_at),
        updatedAt: toNumber(row.user_updated_at),
      },
    };
  }

  async list(userId?: string): Promise<AdminTokenRecord[]> {
    let select = this.db.selectFrom('admin_tokens').select(TOKEN_COLUMNS);
    if (userId !== undefined) select = select.where('user_id', '=', userId);
    return (await select.orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map(toToken);
  }

  async revoke(id: string, at = Date.now()): Promise<AdminTokenRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    await this.db.updateTable('admin_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return this.get(id);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.updateTable('admin_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
