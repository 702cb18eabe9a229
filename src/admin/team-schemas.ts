/** What the admin API answers about teams, users and memberships. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { count, ms } from './schema-parts.js';

const role = builtOnce(() => z.enum(['member', 'admin']));

const holdings = builtOnce(() => ({
  keys: count().describe('Keys that belong to it (disabled ones included).'),
  activeKeys: count(),
  spend: z.number().describe('What its keys have spent so far, USD (the sum of their `used`).'),
}));

export const teamViewSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    members: count(),
    ...holdings(),
    createdAt: ms(),
    updatedAt: ms(),
  }),
);

export const teamListSchema = builtOnce(() => z.object({ data: z.array(teamViewSchema()) }));

export const memberViewSchema = builtOnce(() =>
  z.object({
    teamId: z.string(),
    userId: z.string(),
    role: role(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    createdAt: ms(),
  }),
);

export const memberListSchema = builtOnce(() => z.object({ data: z.array(memberViewSchema()) }));

export const userViewSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    externalId: z.string().nullable(),
    role: z.enum(['owner', 'admin', 'viewer']).nullable().describe('The admin role across the gateway; null: none.'),
    teams: z.array(z.object({ teamId: z.string(), name: z.string().nullable(), role: role() })).describe('The teams the user belongs to, and their role in each.'),
    ...holdings(),
    createdAt: ms(),
    updatedAt: ms(),
  }),
);

export const userListSchema = builtOnce(() => z.object({ data: z.array(userViewSchema()) }));

export const deletedSchema = builtOnce(() => z.object({ id: z.string(), deleted: z.literal(true) }));
