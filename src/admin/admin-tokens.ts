/**
 * Personal admin tokens, shared by the admin API and the CLI: create (the
 * secret returned once, only its hash stored), list, revoke; each change
 * written with its audit entry, which holds the token's record (no secret,
 * no hash: the record has neither).
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { GatewayError } from '../core/errors.js';
import { generateKeySecret, hashKey } from '../http/auth.js';
import type { AdminTokenRecord } from '../storage/admin-token-types.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { UserRecord } from '../storage/team-types.js';
import type { Store } from '../storage/types.js';
import { ADMIN_TOKEN_PREFIX } from './principal.js';
import { parseInput } from './service.js';

const DAY = 86_400_000;

export const adminTokenInputSchema = builtOnce(() =>
  z
    .object({
      name: z.string().trim().min(1).max(100).default('admin token').describe('What the token is for, to recognise it in lists.'),
      expiresInDays: z.number().int().min(1).max(3650).optional().describe('Days until the token stops working; without it, it works until revoked.'),
    })
    .strict(),
);

/** The secret's first characters kept for display: the prefix and four more, far too few to guess the rest. */
const displayPrefix = (secret: string) => secret.slice(0, ADMIN_TOKEN_PREFIX.length + 4);

/** How a token reads once stored: its record and, where the token is past use, why. */
export function tokenView(record: AdminTokenRecord, now = Date.now()) {
  const state = record.revokedAt !== null ? 'revoked' : record.expiresAt !== null && record.expiresAt <= now ? 'expired' : 'active';
  return { ...record, state } as const;
}

export async function createAdminToken(store: Store, user: UserRecord, input: unknown, actor: AuditActor): Promise<{ record: AdminTokenRecord; secret: string }> {
  const data = parseInput(adminTokenInputSchema(), input);
  if (user.status !== 'active') throw new GatewayError('invalid_request', `user "${user.email}" is disabled: a token of theirs would not work`);
  const secret = generateKeySecret(ADMIN_TOKEN_PREFIX);
  const expiresAt = data.expiresInDays === undefined ? null : Date.now() + data.expiresInDays * DAY;
  const record = await store.transaction(async (tx) => {
    const created = await tx.adminTokens.create({ userId: user.id, name: data.name, tokenHash: hashKey(secret), prefix: displayPrefix(secret), expiresAt });
    await tx.audit.record(actor, 'admin-token.create', 'admin-token', null, created);
    return created;
  });
  return { record, secret };
}

/** Revokes a token of `userId` (any user's when null); not found when it is someone else's. */
export async function revokeAdminToken(store: Store, id: string, userId: string | null, actor: AuditActor): Promise<AdminTokenRecord> {
  return store.transaction(async (tx) => {
    const before = await tx.adminTokens.get(id);
    if (!before || (userId !== null && before.userId !== userId)) throw new GatewayError('not_found', `no admin token with id "${id}"`);
    const after = (await tx.adminTokens.revoke(id)) ?? before;
    if (before.revokedAt === null) await tx.audit.record(actor, 'admin-token.revoke', 'admin-token', before, after);
    return after;
  });
}
