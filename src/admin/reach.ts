/**
 * Team-scoped reach inside the handlers: the gate (guard.ts) has checked the
 * caller holds a permission somewhere; these say which records it reaches.
 * Owners, admins and viewers reach everything their role allows; a team admin
 * only the records of the teams they administer. A record out of reach is
 * "not found" (its existence is not told); a filter naming a team out of
 * reach is a 403.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { reachOf, reaches, type Permission, type Principal, type Reach } from './access.js';
import { describeRole } from './guard.js';

export type HeldReach = Exclude<Reach, null>;

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new GatewayError('authentication', 'admin key or personal admin token required');
  return request.principal;
}

/** Where the caller's `permission` reaches; a 403 where it reaches nowhere. */
export function reachFor(request: FastifyRequest, permission: Permission): HeldReach {
  const principal = principalOf(request);
  const reach = reachOf(principal, permission);
  if (!reach) throw new GatewayError('permission', `this needs the ${permission} permission; your role is ${describeRole(principal)}`);
  return reach;
}

/**
 * A list's team filter within reach: the one team asked for (refused when out
 * of reach), else every team a team admin administers.
 */
export function teamFilter(reach: HeldReach, teamId: string | undefined): { teamId?: string; teamIds?: readonly string[] } {
  if (reach.all) return teamId === undefined ? {} : { teamId };
  if (teamId === undefined) return { teamIds: reach.teams };
  if (!reach.teams.includes(teamId)) throw new GatewayError('permission', `teamId: you administer other teams than "${teamId}"; a team admin reads only their teams`, { param: 'teamId' });
  return { teamId };
}

/** Refuses (as not found) a record of a team out of reach; null: a record of no team, which only full reach sees. */
export function requireReach(reach: HeldReach, teamId: string | null | undefined, notFound: string): void {
  if (!reaches(reach, teamId ?? null)) throw new GatewayError('not_found', notFound);
}

/** Refuses (403) a write that would place a record in a team out of reach. */
export function requireTeamForWrite(reach: HeldReach, teamId: unknown, what: string): void {
  if (reach.all) return;
  if (typeof teamId !== 'string' || !reach.teams.includes(teamId)) {
    throw new GatewayError('permission', `teamId: a team admin’s ${what} names one of the teams they administer`, { param: 'teamId' });
  }
}
