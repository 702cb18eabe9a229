/**
 * The config file's users and teams, written to the store as its channels
 * and keys are (see apply.ts): created by email or name, and each declared
 * field, and each declared member (`member:<email>`, its role), applied only
 * when the file's value changed since it was last applied. A member the file
 * declared before and no longer declares is removed. What an operator
 * changes through the admin API stays until the file changes it; a user or
 * team the operator deleted stays deleted until the file changes it.
 */
import type { Store } from '../storage/types.js';
import type { MemberRole, TeamRecord, UserRecord } from '../storage/team-types.js';
import { fingerprint, sameJson } from './fingerprints.js';
import type { ConfigFile } from './file.js';

type Fingerprints = Record<string, string>;

export interface TeamsApplied {
  users: Record<string, Fingerprints>;
  teams: Record<string, Fingerprints>;
}

const MEMBER = 'member:';

function same(a: Fingerprints | undefined, b: Fingerprints): boolean {
  if (a === undefined) return false;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((key) => a[key] === b[key]);
}

export async function applyConfigTeams(store: Store, config: ConfigFile, last: Partial<TeamsApplied>): Promise<{ changed: number; applied: TeamsApplied }> {
  const applied: TeamsApplied = { users: {}, teams: {} };
  let changed = 0;
  for (const [index, user] of config.users.entries()) {
    const email = user.email.toLowerCase();
    const result = await labelled(`users[${index}] "${email}"`, () => applyUser(store, user, last.users?.[email]));
    applied.users[email] = result.fingerprints;
    if (result.changed) changed++;
  }
  for (const [index, team] of config.teams.entries()) {
    const result = await labelled(`teams[${index}] "${team.name}"`, () => applyTeam(store, team, last.teams?.[team.name]));
    applied.teams[team.name] = result.fingerprints;
    if (result.changed) changed++;
  }
  return { changed, applied };
}

async function labelled<T>(label: string, apply: () => Promise<T>): Promise<T> {
  try {
    return await apply();
  } catch (error) {
    throw new Error(`config ${label}: ${(error as Error).message}`, { cause: error });
  }
}

interface Applied {
  changed: boolean;
  fingerprints: Fingerprints;
}

async function applyUser(store: Store, user: ConfigFile['users'][number], last: Fingerprints | undefined): Promise<Applied> {
  const declared = { name: user.name ?? null, status: user.status, externalId: user.externalId ?? null, role: user.role ?? null };
  const fingerprints = Object.fromEntries(Object.entries(declared).map(([field, value]) => [field, fingerprint(value)]));
  const existing = await store.users.getByEmail(user.email);
  if (!existing) {
    // Deleted by the operator after the file created it: stays deleted until the file changes it.
    if (same(last, fingerprints)) return { changed: false, fingerprints };
    await store.users.create({ email: user.email, ...declared });
    return { changed: true, fingerprints };
  }
  const patch = changedFields(existing, declared, fingerprints, last);
  if (Object.keys(patch).length === 0) return { changed: false, fingerprints };
  await store.users.update(existing.id, patch);
  return { changed: true, fingerprints };
}

async function applyTeam(store: Store, team: ConfigFile['teams'][number], last: Fingerprints | undefined): Promise<Applied> {
  const declared = { description: team.description ?? null };
  const fingerprints: Fingerprints = { description: fingerprint(declared.description) };
  const roles = new Map<string, MemberRole>(team.members.map((member) => [member.user.toLowerCase(), member.role]));
  for (const [email, role] of roles) fingerprints[MEMBER + email] = fingerprint(role);
  let existing = await store.teams.getByName(team.name);
  if (!existing) {
    if (same(last, fingerprints)) return { changed: false, fingerprints };
    existing = await store.teams.create({ name: team.name, ...declared });
    last = undefined;
  } else {
    const patch = changedFields(existing, declared, fingerprints, last);
    if (Object.keys(patch).length > 0) await store.teams.update(existing.id, patch);
  }
  let changed = last === undefined;
  for (const [email, role] of roles) {
    if (last?.[MEMBER + email] === fingerprints[MEMBER + email]) continue;
    const user = await store.users.getByEmail(email);
    if (!user) throw new Error(`members: no user with email "${email}" (declare it in users)`);
    if ((await store.teams.member(existing.id, user.id))?.role === role) continue;
    await store.teams.putMember(existing.id, user.id, role);
    changed = true;
  }
  // Members the file declared before and no longer does.
  for (const field of Object.keys(last ?? {})) {
    if (!field.startsWith(MEMBER) || roles.has(field.slice(MEMBER.length))) continue;
    const user = await store.users.getByEmail(field.slice(MEMBER.length));
    if (user && (await store.teams.removeMember(existing.id, user.id))) changed = true;
  }
  return { changed, fingerprints };
}

/** Fields whose declared value differs from the stored one and changed in the file since it was last applied. */
function changedFields<T extends object>(existing: UserRecord | TeamRecord, declared: T, fingerprints: Fingerprints, last: Fingerprints | undefined): Partial<T> {
  const patch: Partial<T> = {};
  for (const field of Object.keys(declared) as (keyof T & string)[]) {
    if (last && last[field] === fingerprints[field]) continue;
    if (!sameJson((existing as unknown as T)[field], declared[field])) patch[field] = declared[field];
  }
  return patch;
}

/** The ids of a config key's team and user (by name and email), checked as the admin API checks them. */
export async function keyOwnerIds(store: Store, key: { team?: string; user?: string }): Promise<{ teamId: string | null; userId: string | null }> {
  if (key.team === undefined) return { teamId: null, userId: null };
  const team = await store.teams.getByName(key.team);
  if (!team) throw new Error(`team: no team named "${key.team}"`);
  if (key.user === undefined) return { teamId: team.id, userId: null };
  const user = await store.users.getByEmail(key.user);
  if (!user) throw new Error(`user: no user with email "${key.user}"`);
  if (!(await store.teams.member(team.id, user.id))) throw new Error(`user: "${user.email}" is not a member of team "${team.name}"`);
  return { teamId: team.id, userId: user.id };
}
