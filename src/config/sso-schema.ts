/**
 * The config file's `sso` section: how the groups a sign-in provider names
 * map to gateway roles and team memberships (admin/sso/mapping.ts applies
 * it). The connection itself (issuer, client) is in the environment.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';

const group = builtOnce(() => z.string().trim().min(1, { error: 'must not be empty' }));

const teamGrantSchema = builtOnce(() =>
  z.strictObject({
    group: group().describe("The provider's group whose members get this membership."),
    team: z.string().trim().min(1, { error: 'must not be empty' }).describe('The team, by name (in `teams`, or stored already; a team not found is skipped with a warning).'),
    role: z.enum(['member', 'admin']).default('member').describe('`member`, or `admin`: a team admin.'),
  }),
);

export const ssoSchema = builtOnce(() =>
  z.strictObject({
    roles: z
      .record(group(), z.enum(['owner', 'admin', 'viewer']))
      .default({})
      .describe('Group → gateway role (`owner`, `admin`, `viewer`); a person in several mapped groups gets the highest.'),
    teams: z.array(teamGrantSchema()).default([]).describe('Group → team membership; a person gets every membership one of their groups names (a team admin wins over a member).'),
    justInTime: z.boolean().default(true).describe('`false`: only people already stored (by subject, else by email) may sign in; nobody is created.'),
    authoritative: z
      .boolean()
      .default(false)
      .describe(
        "`true`: the provider's groups decide: at each sign-in a person's role becomes the mapped one (none when no group maps) and memberships of the teams the mapping names follow the groups, removals included. `false`: sign-in only adds: a role is raised, never lowered, and memberships are added or raised, never removed.",
      ),
  }),
);

export type SsoMapping = z.output<ReturnType<typeof ssoSchema>>;
