/** Teams and their members (see team-types.ts for the rules a delete or a removal follows). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { conflict, isUniqueViolation, toNumber } from './columns.js';
import { GatewayError } from '../core/errors.js';
import { isWellFormedId, newId } from './ids.js';
import type { Database, TeamMembersTable, TeamsTable } from './schema.js';
import type { MemberRole, NewTeam, TeamMember, TeamPatch, TeamRecord, TeamRepository } from './team-types.js';

function toTeam(row: Selectable<TeamsTable>): TeamRecord {
  return { id: row.id, name: row.name, description: row.description, createdAt: toNumber(row.created_at), updatedAt: toNumber(row.updated_at) };
}

function toMember(row: Selectable<TeamMembersTable>): TeamMember {
  return { teamId: row.team_id, userId: row.user_id, role: row.role as MemberRole, createdAt: toNumber(row.created_at) };
}

/** The 409 a delete or a removal gets while active keys would be left without their owner. */
export async function refuseWhileActiveKeys(trx: Transaction<Database>, where: { team_id?: string; user_id?: string }, what: string): Promise<void> {
  let select = trx.selectFrom('keys').select('name').where('status', '=', 'active');
  if (where.team_id !== undefined) select = select.where('team_id', '=', where.team_id);
  if (where.user_id !== undefined) select = select.where('user_id', '=', where.user_id);
  const held = await select.orderBy('name').limit(3).execute();
  if (held.length === 0) return;
  const names = held.map((row) => `"${row.name}"`).join(', ');
  throw new GatewayError('invalid_request', `${what} still holds active keys (${names}${held.length === 3 ? ', …' : ''}): disable them or move them to another team first`, { status: 409 });
}

export class KyselyTeamRepository implements TeamRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(team: NewTeam): Promise<TeamRecord> {
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('teams')
        .values({ id: newId('team'), name: team.name, description: team.description ?? null, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toTeam(row);
    } catch (error) {
      throw isUniqueViolation(error) ? conflict(`a team named "${team.name}"`, error) : error;
    }
  }

  async get(id: string): Promise<TeamRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toTeam(row);
  }

  async getByName(name: string): Promise<TeamRecord | undefined> {
    const row = await this.db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toTeam(row);
  }

  async list(): Promise<TeamRecord[]> {
    return (await this.db.selectFrom('teams').selectAll().orderBy('name').execute()).map(toTeam);
  }

  async update(id: string, patch: TeamPatch): Promise<TeamRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const set: Partial<TeamsTable> = { updated_at: Date.now() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    try {
      const row = await this.db.updateTable('teams').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toTeam(row);
    } catch (error) {
      throw isUniqueViolation(error) ? conflict(`a team named "${patch.name ?? ''}"`, error) : error;
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!isWellFormedId(id)) return false;
    return this.db.transaction().execute(async (trx) => {
      const team = await trx.selectFrom('teams').select('name').where('id', '=', id).executeTakeFirst();
      if (!team) return false;
      await refuseWhileActiveKeys(trx, { team_id: id }, `team "${team.name}"`);
      await trx.updateTable('keys').set({ team_id: null, user_id: null }).where('team_id', '=', id).execute();
      await trx.deleteFrom('team_members').where('team_id', '=', id).execute();
      await trx.deleteFrom('teams').where('id', '=', id).execute();
      return true;
    });
  }

  async members(teamId: string): Promise<TeamMember[]> {
    if (!isWellFormedId(teamId)) return [];
    const rows = await this.db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('user_id').execute();
    return rows.map(toMember);
  }

  async membershipsOf(userId: string): Promise<TeamMember[]> {
    if (!isWellFormedId(userId)) return [];
    const rows = await this.db.selectFrom('team_members').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('team_id').execute();
    return rows.map(toMember);
  }

  async member(teamId: string, userId: string): Promise<TeamMember | undefined> {
    if (!isWellFormedId(teamId) || !isWellFormedId(userId)) return undefined;
    const row = await this.db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
    return row && toMember(row);
  }

  async putMember(teamId: string, userId: string, role: MemberRole): Promise<TeamMember> {
    const row = await this.db
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: userId, role, created_at: Date.now() })
      .onConflict((on) => on.columns(['team_id', 'user_id']).doUpdateSet({ role }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMember(row);
  }

  async removeMember(teamId: string, userId: string): Promise<boolean> {
    if (!isWellFormedId(teamId) || !isWellFormedId(userId)) return false;
    return this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
      if (!found) return false;
      await refuseWhileActiveKeys(trx, { team_id: teamId, user_id: userId }, 'the member');
      await trx.updateTable('keys').set({ user_id: null }).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
      await trx.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
      return true;
    });
  }
}
