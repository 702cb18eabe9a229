/**
 * Who may do what through the admin API. Every admin route declares the
 * permission it needs (`config: { permission }`); one hook resolves the
 * caller (the bootstrap admin key, a person's admin token or console
 * session) into a `Principal` and checks it before the handler runs.
 *
 * A person's gateway-wide role is `users.role`: owner (everything), admin
 * (everything but making or changing owners), viewer (usage, logs, tasks).
 * A team admin is a member with role `admin` in a team: the team-scoped
 * permissions below, limited to the teams they administer. A person with
 * both gets the wider of the two. The bootstrap admin key is an owner.
 */
import type { UserRecord } from '../storage/team-types.js';

export const GATEWAY_ROLES = ['owner', 'admin', 'viewer'] as const;
export type GatewayRole = (typeof GATEWAY_ROLES)[number];

export const PERMISSIONS = [
  'keys.read',
  'keys.write',
  'channels.read',
  'channels.write',
  'prices.read',
  'prices.write',
  'teams.read',
  'teams.write',
  'members.write',
  'users.read',
  'users.write',
  'budgets.read',
  'budgets.write',
  'logs.read',
  'usage.read',
  'tasks.read',
  'audit.read',
  'settings.read',
  /** People's roles and other people's admin tokens. */
  'access.write',
  /** The caller's own profile and admin tokens: anyone signed in. */
  'self',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYTHING: ReadonlySet<Permission> = new Set(PERMISSIONS);

const ROLE_PERMISSIONS: Record<GatewayRole, ReadonlySet<Permission>> = {
  owner: EVERYTHING,
  // Making or changing an owner is checked where roles are written (only an owner may).
  admin: EVERYTHING,
  viewer: new Set<Permission>(['logs.read', 'usage.read', 'tasks.read', 'prices.read', 'self']),
};

/** What a team admin may do, within the teams they administer. */
const TEAM_ADMIN_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'keys.read',
  'keys.write',
  'teams.read',
  'members.write',
  'users.read',
  'budgets.read',
  'budgets.write',
  'logs.read',
  'usage.read',
  'tasks.read',
  'prices.read',
]);

/** Everyone signed in may do these. */
const SIGNED_IN: ReadonlySet<Permission> = new Set<Permission>(['self']);

export type PrincipalKind = 'admin-key' | 'token' | 'session';

export interface Principal {
  kind: PrincipalKind;
  /** The person; null for the bootstrap admin key. */
  user: UserRecord | null;
  /** The gateway-wide role; the admin key is an owner. */
  role: GatewayRole | null;
  /** The teams the person administers (member role `admin`). */
  adminOf: readonly string[];
  /** The admin token's or session's id; null for the admin key. */
  credentialId: string | null;
}

/** Where a permission reaches: every record, the records of some teams, or nowhere. */
export type Reach = { all: true } | { all: false; teams: readonly string[] } | null;

const ALL: Reach = { all: true };

export function reachOf(principal: Principal, permission: Permission): Reach {
  if (principal.role && ROLE_PERMISSIONS[principal.role].has(permission)) return ALL;
  if (SIGNED_IN.has(permission)) return ALL;
  if (principal.adminOf.length > 0 && TEAM_ADMIN_PERMISSIONS.has(permission)) return { all: false, teams: principal.adminOf };
  return null;
}

/** Whether a record of this team (null: of no team) is within reach. */
export function reaches(reach: Reach, teamId: string | null): boolean {
  if (!reach) return false;
  if (reach.all) return true;
  return teamId !== null && reach.teams.includes(teamId);
}

/** The permissions a principal holds anywhere, for the console to show what it may use. */
export function permissionsOf(principal: Principal): Permission[] {
  return PERMISSIONS.filter((permission) => reachOf(principal, permission) !== null);
}
