/**
 * The audit log's contract: one entry per administrative change, who made
 * it (the actor), what it changed (the target, its public view before and
 * after) and when. Written in the transaction of the change itself, read
 * newest first with filters, pruned by age (billing/log-retention.ts). The
 * repository's interface and the records an entry is made from are in
 * types.ts, beside the records themselves.
 */
import type { PagePosition } from './paging.js';

/** Who changes things: the bootstrap admin key, the CLI, the config file, admin users and their tokens, and single sign-on (users it creates or maps). */
export type AuditActorKind = 'admin-key' | 'cli' | 'config-file' | 'user' | 'token' | 'sso';

export interface AuditActor {
  kind: AuditActorKind;
  /** The user's or token's id; the OS user for the CLI; the file's path for the config file; null for the admin key. */
  id: string | null;
  name: string | null;
  /** The admin API request that made the change. */
  requestId: string | null;
  clientIp: string | null;
}

export interface AuditEntry {
  /** `aud_…`, sorting by time. */
  id: string;
  at: number;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetKind: string;
  targetId: string | null;
  targetName: string | null;
  /** The target's public view before the change; null when it did not exist. */
  before: Record<string, unknown> | null;
  /** The target's public view after the change; null when it no longer exists. */
  after: Record<string, unknown> | null;
  requestId: string | null;
  clientIp: string | null;
}

export interface AuditQuery {
  actorKind?: string;
  actorId?: string;
  /** `key.` or `key.create`: actions that start with it. */
  actionPrefix?: string;
  targetKind?: string;
  targetId?: string;
  since?: number;
  until?: number;
  /** The last entry of the previous page. */
  after?: PagePosition;
  limit?: number;
}
