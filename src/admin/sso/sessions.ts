/**
 * Console sessions: made at a finished sign-in, found from the request's
 * cookie, ended at logout or expiry. The cookie holds a random 32-byte secret;
 * the store holds only its SHA-256, the session's id, so a copy of the
 * database signs nobody in. `sessionOf` is the session resolver the admin
 * API's principal resolution calls.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AdminSessionRecord } from '../../storage/admin-session-types.js';
import type { UserRecord } from '../../storage/team-types.js';
import type { Store, StoreWrites } from '../../storage/types.js';
import { cookieOf, SESSION_COOKIE } from './cookies.js';

/** A session is marked as used at most this often (one write per minute, not per request). */
const TOUCH_EVERY_MS = 60_000;

export const sessionIdOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export interface SessionPrincipal {
  user: UserRecord;
  /** The session's id (the SHA-256 of the cookie's secret, never the secret). */
  credentialId: string;
  session: AdminSessionRecord;
}

/** The signed-in person the request's session cookie names; null when there is none, it expired, or the user is gone or disabled. */
export async function sessionOf(request: FastifyRequest, store: Store): Promise<SessionPrincipal | null> {
  const secret = cookieOf(request, SESSION_COOKIE);
  if (!secret) return null;
  const id = sessionIdOf(secret);
  const session = await store.sessions.get(id);
  const now = Date.now();
  if (!session || session.expiresAt <= now) return null;
  const user = await store.users.get(session.userId);
  if (user?.status !== 'active') return null;
  if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await store.sessions.touch(id, now);
  return { user, credentialId: id, session };
}

/** A new session for the user: its record (written through `tx`) and the secret for the cookie. */
export async function openSession(tx: StoreWrites, userId: string, lifetimeMs: number, providerSid: string | null): Promise<{ secret: string; session: AdminSessionRecord }> {
  const secret = randomBytes(32).toString('base64url');
  const session = await tx.sessions.create({ id: sessionIdOf(secret), userId, expiresAt: Date.now() + lifetimeMs, providerSid });
  return { secret, session };
}
