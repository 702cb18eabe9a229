/**
 * Who is calling the admin API: a short list of resolvers, tried in order,
 * each recognising one kind of credential and answering the `Principal` it
 * stands for, null when the request carries none of its kind, or a 401 saying
 * why a credential of its kind fails (revoked, expired, its user disabled).
 * A person's role and team-admin memberships are read on every request, so a
 * change takes effect at once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { bearerToken, headerValue } from '../http/credentials.js';
import type { UserRecord } from '../storage/team-types.js';
import type { Store } from '../storage/types.js';
import type { Principal, PrincipalKind } from './access.js';

export type PrincipalResolver = (request: FastifyRequest) => Promise<Principal | null>;

/** What a console session stands for (the sign-in's `sessionOf`): its person and the session's id. */
export interface SignedIn {
  user: UserRecord;
  credentialId: string;
}

/** A personal admin token's secret starts with this (an admin key with `sk-admin-`, a client key with `sk-sy-`). */
export const ADMIN_TOKEN_PREFIX = 'sk-pat-';

/** Last-use times are written at most this often per token: admin reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;

/** The credential a request presents in the admin API's places: `x-admin-key` or a Bearer token. */
export function presentedCredential(request: FastifyRequest): string | undefined {
  return headerValue(request, 'x-admin-key') ?? bearerToken(request);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export function isAdmin(request: FastifyRequest, adminKeyHash: string): boolean {
  const presented = presentedCredential(request);
  if (!presented) return false;
  return timingSafeEqual(sha256(presented), Buffer.from(adminKeyHash, 'hex'));
}

const ADMIN_KEY_PRINCIPAL: Principal = Object.freeze({ kind: 'admin-key', user: null, role: 'owner', adminOf: [], credentialId: null });

/** The bootstrap admin key: an owner with no person behind it. */
export function adminKeyResolver(adminKeyHash: string): PrincipalResolver {
  return async (request) => (isAdmin(request, adminKeyHash) ? ADMIN_KEY_PRINCIPAL : null);
}

/** A person as a principal: their role as stored, and the teams where they are an admin member. */
export async function principalOfUser(store: Store, kind: PrincipalKind, user: UserRecord, credentialId: string): Promise<Principal> {
  const memberships = await store.teams.membershipsOf(user.id);
  return { kind, user, role: user.role, adminOf: memberships.filter((member) => member.role === 'admin').map((member) => member.teamId), credentialId };
}

/** A personal admin token, by its secret's hash: one query for the token and its user, one for the memberships. */
export function adminTokenResolver(store: Store): PrincipalResolver {
  return async (request) => {
    const presented = presentedCredential(request);
    if (!presented?.startsWith(ADMIN_TOKEN_PREFIX)) return null;
    const found = await store.adminTokens.findByHash(sha256(presented).toString('hex'));
    if (!found) throw new GatewayError('authentication', 'unknown admin token');
    const { token, user } = found;
    const now = Date.now();
    if (token.revokedAt !== null) throw new GatewayError('authentication', 'this admin token was revoked');
    if (token.expiresAt !== null && token.expiresAt <= now) throw new GatewayError('authentication', 'this admin token has expired');
    if (user.status !== 'active') throw new GatewayError('authentication', 'this admin token’s user is disabled');
    if (token.lastUsedAt === null || now - token.lastUsedAt >= TOUCH_EVERY_MS) {
      await store.adminTokens.touch(token.id, now).catch((error) => request.log.warn({ err: error }, 'admin token last-use not written'));
    }
    return principalOfUser(store, 'token', user, token.id);
  };
}

/**
 * A console session, from the sign-in's `sessionOf(request)`: null when the
 * request has none. A disabled person's session is refused like a token of theirs.
 */
export function sessionResolver(store: Store, sessionOf: (request: FastifyRequest) => Promise<SignedIn | null> | SignedIn | null): PrincipalResolver {
  return async (request) => {
    const session = await sessionOf(request);
    if (!session) return null;
    if (session.user.status !== 'active') throw new GatewayError('authentication', 'this session’s user is disabled');
    return principalOfUser(store, 'session', session.user, session.credentialId);
  };
}

/** The first resolver's principal; a 401 when none recognises the request. */
export async function resolvePrincipal(request: FastifyRequest, resolvers: readonly PrincipalResolver[]): Promise<Principal> {
  for (const resolve of resolvers) {
    const principal = await resolve(request);
    if (principal) return principal;
  }
  throw new GatewayError('authentication', presentedCredential(request) ? 'the admin key or admin token given is not valid' : 'admin key or personal admin token required');
}
