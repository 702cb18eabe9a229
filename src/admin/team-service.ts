/**
 * Admin operations on teams, users and memberships, shared by the admin API
 * and the CLI, and the rule a key's owner must meet: a key for a user names a
 * team the user belongs to. Reads show what a team's or a user's keys add up
 * to (their spend so far).
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { GatewayError } from '../core/errors.js';
import { memberRoleSchema, teamFields, userFields } from '../config/team-fields.js';
import type { KeyHoldings, TeamMember, TeamRecord, UserRecord } from '../storage/team-types.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';
import { parseInput } from './service.js';

export const teamInputSchema = builtOnce(() => z.object({ name: teamFields().name, description: teamFields().description.optional() }).strict());
export const teamPatchSchema = builtOnce(() => teamInputSchema().partial().strict());
export const memberInputSchema = builtOnce(() =>
  z
    .object({
      userId: z.string().min(1).max(128).describe('The user to add, or whose role to change.'),
      role: memberRoleSchema().default('member'),
    })
    .strict(),
);
export const userInputSchema = builtOnce(() =>
  z
    .object({
      email: userFields().email,
      name: userFields().name.optional(),
      status: userFields().status.optional(),
      externalId: userFields().externalId.optional(),
      role: userFields().role.optional(),
    })
    .strict(),
);
export const userPatchSchema = builtOnce(() => userInputSchema().partial().strict());

const holdingsView = (holdings: KeyHoldings) => ({ keys: holdings.keys, activeKeys: holdings.activeKeys, spend: holdings.used });

export class TeamService {
  constructor(private readonly store: Store) {}

  async createTeam(input: unknown, actor: AuditActor): Promise<TeamRecord> {
    const data = parseInput(teamInputSchema(), input);
    return this.store.transaction(async (tx) => {
      const record = await tx.teams.create(data);
      await tx.audit.record(actor, 'team.create', 'team', null, record);
      return record;
    });
  }

  async updateTeam(id: string, input: unknown, actor: AuditActor): Promise<TeamRecord> {
    const patch = parseInput(teamPatchSchema(), input);
    return this.store.transaction(async (tx) => {
      const before = await tx.teams.get(id);
      const record = before && (await tx.teams.update(id, patch));
      if (!record) throw new GatewayError('not_found', `no team with id "${id}"`);
      await tx.audit.record(actor, 'team.update', 'team', before, record);
      return record;
    });
  }

  async getTeam(id: string): Promise<TeamRecord> {
    const record = await this.store.teams.get(id);
    if (!record) throw new GatewayError('not_found', `no team with id "${id}"`);
    return record;
  }

  // The deletes and a member's removal run in a transaction of their own (they detach disabled keys and
  // refuse while active ones remain), so their entry is written right after, not inside it.
  async deleteTeam(id: string, actor: AuditActor): Promise<void> {
    const before = await this.store.teams.get(id);
    if (!before || !(await this.store.teams.delete(id))) throw new GatewayError('not_found', `no team with id "${id}"`);
    await this.store.audit.record(actor, 'team.delete', 'team', before, null);
  }

  /** A team as reads show it: how many members and keys, and the keys' spend. */
  async teamView(record: TeamRecord) {
    const [members, holdings] = await Promise.all([this.store.teams.members(record.id), this.store.keys.holdings({ teamId: record.id })]);
    return { ...record, members: members.length, ...holdingsView(holdings) };
  }

  async putMember(teamId: string, input: unknown, actor: AuditActor): Promise<TeamMember> {
    const data = parseInput(memberInputSchema(), input);
    await this.getTeam(teamId);
    if (!(await this.store.users.get(data.userId))) throw new GatewayError('invalid_request', `userId: no user with id "${data.userId}"`, { param: 'userId' });
    return this.store.transaction(async (tx) => {
      const before = (await tx.teams.members(teamId)).find((member) => member.userId === data.userId) ?? null;
      const member = await tx.teams.putMember(teamId, data.userId, data.role);
      await tx.audit.record(actor, before ? 'team-member.update' : 'team-member.add', 'team-member', before, member);
      return member;
    });
  }

  async removeMember(teamId: string, userId: string, actor: AuditActor): Promise<void> {
    const before = (await this.store.teams.members(teamId)).find((member) => member.userId === userId);
    if (!before || !(await this.store.teams.removeMember(teamId, userId))) throw new GatewayError('not_found', `no member "${userId}" in team "${teamId}"`);
    await this.store.audit.record(actor, 'team-member.remove', 'team-member', before, null);
  }

  /** A team's members with their email and name. */
  async memberViews(teamId: string) {
    await this.getTeam(teamId);
    const members = await this.store.teams.members(teamId);
    const users = await Promise.all(members.map((member) => this.store.users.get(member.userId)));
    return members.map((member, index) => ({ ...member, email: users[index]?.email ?? null, name: users[index]?.name ?? null }));
  }

  async createUser(input: unknown, actor: AuditActor): Promise<UserRecord> {
    const data = parseInput(userInputSchema(), input);
    return this.store.transaction(async (tx) => {
      const record = await tx.users.create(data);
      await tx.audit.record(actor, 'user.create', 'user', null, record);
      return record;
    });
  }

  async updateUser(id: string, input: unknown, actor: AuditActor): Promise<UserRecord> {
    const patch = parseInput(userPatchSchema(), input);
    return this.store.transaction(async (tx) => {
      const before = await tx.users.get(id);
      const record = before && (await tx.users.update(id, patch));
      if (!record) throw new GatewayError('not_found', `no user with id "${id}"`);
      await tx.audit.record(actor, 'user.update', 'user', before, record);
      return record;
    });
  }

  async getUser(id: string): Promise<UserRecord> {
    const record = await this.store.users.get(id);
    if (!record) throw new GatewayError('not_found', `no user with id "${id}"`);
    return record;
  }

  async deleteUser(id: string, actor: AuditActor): Promise<void> {
    const before = await this.store.users.get(id);
    if (!before || !(await this.store.users.delete(id))) throw new GatewayError('not_found', `no user with id "${id}"`);
    await this.store.audit.record(actor, 'user.delete', 'user', before, null);
  }

  /** A user as reads show them: their teams and roles, how many keys, and the keys' spend. */
  async userView(record: UserRecord) {
    const [memberships, holdings] = await Promise.all([this.store.teams.membershipsOf(record.id), this.store.keys.holdings({ userId: record.id })]);
    const teams = await Promise.all(memberships.map((membership) => this.store.teams.get(membership.teamId)));
    return {
      ...record,
      teams: memberships.map((membership, index) => ({ teamId: membership.teamId, name: teams[index]?.name ?? null, role: membership.role })),
      ...holdingsView(holdings),
    };
  }
}
