/**
 * The fields of a team, a user and a membership, written once and shared by
 * the admin API (and so the CLI) and the config file, each with its rule and
 * description (rendered into docs/admin-api.md and docs/reference.md).
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { hasControlCharacter } from '../core/model-name.js';

// Names end up in log lines and PostgreSQL text columns: no control characters (NUL included).
const plainText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !hasControlCharacter(text), 'must not contain control characters');

export const teamFields = builtOnce(() => ({
  name: plainText(128).min(1).describe('Unique team name (1-128 characters, no control characters).'),
  description: plainText(1024).nullable().describe('What the team is, for people (up to 1024 characters); null: none.'),
}));

export const memberRoleSchema = builtOnce(() => z.enum(['member', 'admin']).describe('`member`, or `admin`: a team admin (the rights a team admin has come with admin roles).'));

export const userFields = builtOnce(() => ({
  email: z.email({ error: 'must be an email address' }).max(320).describe('Unique email address; compared and stored lower-cased.'),
  name: plainText(128).nullable().describe('The person’s name, for people (up to 128 characters); null: none.'),
  status: z.enum(['active', 'disabled']).describe('`disabled`: kept, with their keys and memberships, but marked as no longer active.'),
  externalId: plainText(256).min(1).nullable().describe('The subject a sign-in provider names this user by (unique); null until one does.'),
  role: z
    .enum(['owner', 'admin', 'viewer'])
    .nullable()
    .describe(
      'The person’s admin role across the gateway: `owner` (everything), `admin` (everything but owners), `viewer` (usage, logs and tasks); null: none (a team admin acts within their teams through their membership).',
    ),
}));
