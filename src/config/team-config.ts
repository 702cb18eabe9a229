/**
 * The config file's `users` and `teams` (with their members), built from the
 * same fields as the admin API's (team-fields.ts), and the checks across
 * them: names and emails declared once, members and keys naming declared or
 * stored users and teams (the latter checked when the file is applied).
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { memberRoleSchema, teamFields, userFields } from './team-fields.js';

export const configUserSchema = builtOnce(() =>
  z.strictObject({
    email: userFields().email.describe('Unique email address; the file matches existing users by it (case-folded).'),
    name: userFields().name.optional(),
    status: userFields().status.default('active'),
    externalId: userFields().externalId.optional(),
    role: userFields().role.optional(),
  }),
);

export const configTeamSchema = builtOnce(() =>
  z.strictObject({
    name: teamFields().name.describe('Unique team name; the file matches existing teams by it.'),
    description: teamFields().description.optional(),
    members: z
      .array(
        z.strictObject({
          user: z.string().min(1).describe('The member’s email: a user in `users`, or one stored already.'),
          role: memberRoleSchema().default('member'),
        }),
      )
      .default([])
      .describe('The team’s members. A member the file stops declaring is removed (refused while they hold an active key of the team).'),
  }),
);

type ConfigUser = z.output<ReturnType<typeof configUserSchema>>;
type ConfigTeam = z.output<ReturnType<typeof configTeamSchema>>;

/** Duplicate team names, user emails (case-folded) and members within a team, reported at their place in the file. */
export function checkTeamsAndUsers(config: { users: ConfigUser[]; teams: ConfigTeam[]; keys: Array<{ team?: string; user?: string }> }, ctx: z.RefinementCtx): void {
  const duplicate = (values: string[], path: (index: number) => PropertyKey[], what: string) => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: path(index), message: `duplicate: "${value}" is declared twice${what}` });
      seen.add(value);
    });
  };
  duplicate(
    config.users.map((user) => user.email.toLowerCase()),
    (index) => ['users', index, 'email'],
    '',
  );
  duplicate(
    config.teams.map((team) => team.name),
    (index) => ['teams', index, 'name'],
    '',
  );
  config.teams.forEach((team, teamIndex) =>
    duplicate(
      team.members.map((member) => member.user.toLowerCase()),
      (index) => ['teams', teamIndex, 'members', index, 'user'],
      ' in this team',
    ),
  );
  config.keys.forEach((key, index) => {
    if (key.user !== undefined && key.team === undefined) ctx.addIssue({ code: 'custom', path: ['keys', index, 'team'], message: 'a key for a user names one of the user’s teams' });
  });
}
