/**
 * Personal admin tokens as the rest of the gateway sees them (the table in
 * migrations/0014_admin_tokens.ts). A record never carries the secret nor
 * its hash: the hash goes in on creation and is only ever matched, so no
 * view made from a record can show it. Times are epoch milliseconds.
 */
import type { UserRecord } from './team-types.js';

export interface AdminTokenRecord {
  /** `pat_…`. */
  id: string;
  userId: string;
  name: string;
  /** The secret's first characters, to recognise it by. */
  prefix: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface NewAdminToken {
  userId: string;
  name: string;
  /** sha256 hex of the secret. */
  tokenHash: string;
  prefix: string;
  expiresAt?: number | null;
}

/** A token found by its secret's hash, with its user and the teams that user administers. */
export interface AdminTokenHolder {
  token: AdminTokenRecord;
  user: UserRecord;
}

export interface AdminTokenRepository {
  create(token: NewAdminToken): Promise<AdminTokenRecord>;
  get(id: string): Promise<AdminTokenRecord | undefined>;
  /** The token whose secret hashes to `tokenHash`, with its user, in one query; revoked and expired ones too (the caller says why they fail). */
  findByHash(tokenHash: string): Promise<AdminTokenHolder | undefined>;
  /** Newest first; every user's when `userId` is not given. */
  list(userId?: string): Promise<AdminTokenRecord[]>;
  /** Marks it revoked (kept for the record); undefined when there is no such token. An already revoked one keeps its first revocation time. */
  revoke(id: string, at?: number): Promise<AdminTokenRecord | undefined>;
  /** Notes when the token was last used. */
  touch(id: string, at: number): Promise<void>;
}
