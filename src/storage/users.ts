/** Users: people who belong to teams and hold keys (see team-types.ts). Emails are kept case-folded. */
import type { Kysely, Selectable } from 'kysely';
import { conflict, isUniqueViolation, toNumber } from './columns.js';
import { isWellFormedId, newId } from './ids.js';
import type { Database, UsersTable } from './schema.js';
import { refuseWhileActiveKeys } from './teams.js';
import type { NewUser, UserPatch, UserRecord, UserRepository, UserRole, UserStatus } from './team-types.js';

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    status: row.status as UserStatus,
    externalId: row.external_id,
    role: (row.role as UserRole | null) ?? null,
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

/** One address, however it is capitalised, is one user. */
export const foldEmail = (email: string): string => email.trim().toLowerCase();

function clash(error: unknown, user: UserPatch): unknown {
  if (!isUniqueViolation(error)) return error;
  if (String((error as Error).message ?? '').includes('external_id')) return conflict(`a user with external id "${user.externalId ?? ''}"`, error);
  return conflict(`a user with email "${user.email ?? ''}"`, error);
}

export class KyselyUserRepository implements UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(user: NewUser): Promise<UserRecord> {
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          id: newId('user'),
          email: foldEmail(user.email),
          name: user.name ?? null,
          status: user.status ?? 'active',
          external_id: user.externalId ?? null,
          role: user.role ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (error) {
      throw clash(error, user);
    }
  }

  async get(id: string): Promise<UserRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async getByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', foldEmail(email)).executeTakeFirst();
    return row && toUser(row);
  }

  async getByExternalId(externalId: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('external_id', '=', externalId).executeTakeFirst();
    return row && toUser(row);
  }

  async list(): Promise<UserRecord[]> {
    return (await this.db.selectFrom('users').selectAll().orderBy('email').execute()).map(toUser);
  }

  async update(id: string, patch: UserPatch): Promise<UserRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const set: Partial<UsersTable> = { updated_at: Date.now() };
    if (patch.email !== undefined) set.email = foldEmail(patch.email);
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.status !== undefined) set.status = patch.status;
    if (patch.externalId !== undefined) set.external_id = patch.externalId;
    if (patch.role !== undefined) set.role = patch.role;
    try {
      const row = await this.db.updateTable('users').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toUser(row);
    } catch (error) {
      throw clash(error, patch);
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!isWellFormedId(id)) return false;
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst();
      if (!user) return false;
      await refuseWhileActiveKeys(trx, { user_id: id }, `user "${user.email}"`);
      await trx.updateTable('keys').set({ user_id: null }).where('user_id', '=', id).execute();
      await trx.deleteFrom('team_members').where('user_id', '=', id).execute();
      // Their admin tokens go with them (the audit log keeps what was done with them).
      await trx.deleteFrom('admin_tokens').where('user_id', '=', id).execute();
      await trx.deleteFrom('users').where('id', '=', id).execute();
      return true;
    });
  }
}
