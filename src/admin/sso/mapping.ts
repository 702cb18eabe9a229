/**
 * The config file's `sso` mapping applied at a sign-in: the provider's groups
 * give a gateway role (the highest one mapped) and team memberships (a team
 * admin wins over a member). The rule for what was set by hand: unless the
 * mapping is authoritative, a sign-in only adds (a role is raised, never
 * lowered or removed; a membership is added or raised to admin, never
 * lowered or removed). Authoritative, the role becomes the mapped one (none
 * when no group maps) and the memberships of the teams the mapping names
 * follow the groups; teams it does not name are never touched.
 */
import type { Logger } from 'pino';
import type { SsoMapping } from '../../config/sso-schema.js';
import type { AuditActor } from '../../storage/audit-types.js';
import type { MemberRole, TeamMember, UserRecord, UserRole } from '../../storage/team-types.js';
import type { Store, StoreWrites } from '../../storage/types.js';

const RANK: Record<UserRole, number> = { viewer: 1, admin: 2, owner: 3 };

const higher = (a: UserRole | null, b: UserRole | null): UserRole | null => (a === null ? b : b === null ? a : RANK[a] >= RANK[b] ? a : b);

/** What the groups grant: the highest role, and a role per team name. */
export function grantsOf(mapping: SsoMapping, groups: readonly string[]): { role: UserRole | null; teams: Map<string, MemberRole> } {
  const held = new Set(groups);
  let role: UserRole | null = null;
  for (const [group, granted] of Object.entries(mapping.roles)) if (held.has(group)) role = higher(role, granted);
  const teams = new Map<string, MemberRole>();
  for (const grant of mapping.teams) {
    if (!held.has(grant.group)) continue;
    if (teams.get(grant.team) !== 'admin') teams.set(grant.team, grant.role);
  }
  return { role, teams };
}

/**
 * Writes the role and memberships the groups grant, each change audited;
 * returns the user as it now is and the memberships to remove, which
 * `removeMemberships` does after the transaction (a removal runs its own).
 */
export async function applyMapping(
  tx: StoreWrites,
  user: UserRecord,
  mapping: SsoMapping,
  groups: readonly string[],
  actor: AuditActor,
  logger: Logger,
): Promise<{ user: UserRecord; removals: TeamMember[] }> {
  const removals: TeamMember[] = [];
  const grants = grantsOf(mapping, groups);
  const role = mapping.authoritative ? grants.role : higher(user.role, grants.role);
  let current = user;
  if (role !== user.role) {
    current = (await tx.users.update(user.id, { role })) ?? user;
    await tx.audit.record(actor, 'user.update', 'user', user, current);
  }
  const named = new Set(mapping.teams.map((grant) => grant.team));
  for (const teamName of named) {
    const team = await tx.teams.getByName(teamName);
    if (!team) {
      logger.warn({ team: teamName }, 'single sign-on: the mapping names a team that does not exist; skipped');
      continue;
    }
    const granted = grants.teams.get(teamName);
    const member = await tx.teams.member(team.id, user.id);
    if (granted) {
      const wanted: MemberRole = mapping.authoritative || !member ? granted : member.role === 'admin' ? 'admin' : granted;
      if (member?.role === wanted) continue;
      const after = await tx.teams.putMember(team.id, user.id, wanted);
      await tx.audit.record(actor, member ? 'team-member.update' : 'team-member.add', 'team-member', member ?? null, after);
    } else if (member && mapping.authoritative) {
      removals.push(member);
    }
  }
  return { user: current, removals };
}

/** Removes memberships the groups no longer grant (authoritative mapping), each audited. */
export async function removeMemberships(store: Store, removals: readonly TeamMember[], actor: AuditActor, logger: Logger): Promise<void> {
  for (const member of removals) {
    try {
      if (await store.teams.removeMember(member.teamId, member.userId)) await store.audit.record(actor, 'team-member.remove', 'team-member', member, null);
    } catch {
      // Refused while they hold an active key of the team (storage/teams.ts): kept, and said.
      logger.warn({ teamId: member.teamId, userId: member.userId }, 'single sign-on: a membership the groups no longer grant is kept while the user holds an active key of the team');
    }
  }
}
