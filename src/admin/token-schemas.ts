/** What the admin API answers about the caller (/admin/me) and personal admin tokens. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { GATEWAY_ROLES, PERMISSIONS } from './access.js';
import { ms, nullableMs } from './schema-parts.js';

export const adminTokenViewSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    prefix: z.string().describe('The secret’s first characters, to recognise it (never the secret).'),
    state: z.enum(['active', 'revoked', 'expired']),
    createdAt: ms(),
    expiresAt: nullableMs(),
    lastUsedAt: nullableMs().describe('When it was last used, to the minute; null: never.'),
    revokedAt: nullableMs(),
  }),
);

export const adminTokenListSchema = builtOnce(() => z.object({ data: z.array(adminTokenViewSchema()) }));

export const createdAdminTokenSchema = builtOnce(() =>
  adminTokenViewSchema().extend({
    token: z.string().describe('The secret: shown in this answer only. Send it as `Authorization: Bearer <token>` or `x-admin-key`.'),
  }),
);

export const meSchema = builtOnce(() =>
  z.object({
    kind: z.enum(['admin-key', 'token', 'session']).describe('How the caller signed in.'),
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).nullable().describe('The person; null for the admin key.'),
    role: z.enum(GATEWAY_ROLES).nullable().describe('The gateway-wide role; the admin key is an owner.'),
    adminOf: z.array(z.object({ id: z.string(), name: z.string() })).describe('The teams the person administers.'),
    permissions: z.array(z.enum(PERMISSIONS)).describe('What the caller may do somewhere (a team admin’s within their teams).'),
  }),
);
