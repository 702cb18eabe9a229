/**
 * Console sessions and the sign-ins that lead to them (the tables in
 * migrations/0015_admin_sessions.ts), as the admin layer sees them. A
 * session's id is the SHA-256 (hex) of the secret its cookie holds: the store
 * never sees the secret. Times are epoch milliseconds.
 */
export interface AdminSessionRecord {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  /** The provider's session id (`sid` claim), when it names one. */
  providerSid: string | null;
}

export interface NewAdminSession {
  id: string;
  userId: string;
  expiresAt: number;
  providerSid?: string | null;
}

/** A sign-in sent to the provider: what its callback needs to finish it. */
export interface PendingLogin {
  /** SHA-256 (hex) of the `state` sent to the provider. */
  id: string;
  codeVerifier: string;
  nonce: string;
  /** The console path to land on once signed in. */
  returnTo: string;
  expiresAt: number;
}

export interface AdminSessionRepository {
  create(session: NewAdminSession): Promise<AdminSessionRecord>;
  /** The session, expired or not (the caller judges). */
  get(id: string): Promise<AdminSessionRecord | undefined>;
  /** Records that the session was used at `at`. */
  touch(id: string, at: number): Promise<void>;
  /** Ends the session; whether there was one. */
  delete(id: string): Promise<boolean>;
  /** Deletes sessions and pending sign-ins that expired before `now`; how many sessions went. */
  pruneExpired(now: number): Promise<number>;
  startLogin(login: PendingLogin): Promise<void>;
  /** Takes a pending sign-in out of the store: each one finishes at most once. */
  takeLogin(id: string): Promise<PendingLogin | undefined>;
}
