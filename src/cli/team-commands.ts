/**
 * The CLI's teams and users commands (run.ts parses the command line and
 * opens the store): the admin API's operations, with teams named by name or
 * id and users by email or id. Users' admin tokens are theirs (tokens.ts),
 * handed on from here.
 */
import { TeamService } from '../admin/team-service.js';
import type { AuditActor } from '../storage/audit-types.js';
import { GatewayError } from '../core/errors.js';
import type { Store } from '../storage/types.js';
import { runTokenCommand, TOKEN_COMMANDS, TOKEN_OPTIONS, TOKEN_USAGE } from './tokens.js';

export const TEAM_USAGE = `  teams add --name NAME [--description TEXT]
  teams list
  teams show NAME|ID        the team, its members, its keys' spend
  teams update NAME|ID [--name NAME] [--description TEXT]
  teams remove NAME|ID      refused while the team holds active keys
  teams members add TEAM --user EMAIL|ID [--role member|admin]
  teams members remove TEAM --user EMAIL|ID
  users add --email EMAIL [--name NAME] [--external-id ID] [--role owner|admin|viewer|none]
  users list
  users show EMAIL|ID
  users update EMAIL|ID [--email EMAIL] [--name NAME] [--status active|disabled] [--external-id ID]
                            [--role owner|admin|viewer|none]
  users remove EMAIL|ID     refused while the user holds active keys
${TOKEN_USAGE}`;

export const TEAM_COMMANDS = [
  'teams add',
  'teams list',
  'teams show',
  'teams update',
  'teams remove',
  'teams members add',
  'teams members remove',
  'users add',
  'users list',
  'users show',
  'users update',
  'users remove',
  ...TOKEN_COMMANDS,
];

export const TEAM_OPTIONS = {
  team: { type: 'string' },
  user: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  description: { type: 'string' },
  status: { type: 'string' },
  'external-id': { type: 'string' },
  ...TOKEN_OPTIONS,
} as const;

/** `teams members add TEAM` is three words and a reference; every other command two and one. */
export function splitCommand(group: string, words: string[]): { action?: string; ref?: string } {
  if (group === 'usage') return { ref: words[0] };
  if (group === 'teams' && words[0] === 'members') return { action: `members ${words[1] ?? ''}`.trim(), ref: words[2] };
  return { action: words[0], ref: words[1] };
}

type Values = Record<string, string | boolean | string[] | undefined>;

const text = (value: Values[string]) => (typeof value === 'string' ? value : undefined);
/** `--role none` takes a person's admin role away. */
const roleOption = (value: Values[string]) => (value === 'none' ? null : text(value));

export async function findTeamId(store: Store, ref: string): Promise<string> {
  const record = (await store.teams.get(ref)) ?? (await store.teams.getByName(ref));
  if (!record) throw new GatewayError('not_found', `no team named or with id "${ref}"`);
  return record.id;
}

export async function findUserId(store: Store, ref: string): Promise<string> {
  const record = (await store.users.get(ref)) ?? (await store.users.getByEmail(ref));
  if (!record) throw new GatewayError('not_found', `no user with email or id "${ref}"`);
  return record.id;
}

function required(ref: string | undefined, what: string): string {
  if (!ref) throw new GatewayError('invalid_request', `name the ${what}`);
  return ref;
}

/** Only the flags given, so an update changes nothing else. */
function given(fields: Record<string, string | null | undefined>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<string, string | null>;
}

export async function runTeamCommand(command: string, ref: string | undefined, values: Values, store: Store, print: (value: unknown) => void, actor: AuditActor): Promise<void> {
  const service = new TeamService(store);
  switch (command) {
    case 'teams add':
      return print(await service.teamView(await service.createTeam(given({ name: text(values.name), description: text(values.description) }), actor)));
    case 'teams list':
      return print(await Promise.all((await store.teams.list()).map((team) => service.teamView(team))));
    case 'teams show': {
      const id = await findTeamId(store, required(ref, 'team: NAME or ID'));
      return print({ ...(await service.teamView(await service.getTeam(id))), memberList: await service.memberViews(id) });
    }
    case 'teams update': {
      const id = await findTeamId(store, required(ref, 'team: NAME or ID'));
      return print(await service.teamView(await service.updateTeam(id, given({ name: text(values.name), description: text(values.description) }), actor)));
    }
    case 'teams remove': {
      const id = await findTeamId(store, required(ref, 'team: NAME or ID'));
      await service.deleteTeam(id, actor);
      return print({ id, deleted: true });
    }
    case 'teams members add':
    case 'teams members remove': {
      const teamId = await findTeamId(store, required(ref, 'team: NAME or ID'));
      const userId = await findUserId(store, required(text(values.user), 'user: --user EMAIL or ID'));
      if (command === 'teams members remove') {
        await service.removeMember(teamId, userId, actor);
        return print({ teamId, userId, removed: true });
      }
      return print(await service.putMember(teamId, given({ userId, role: text(values.role) }), actor));
    }
    case 'users add':
      return print(
        await service.userView(await service.createUser(given({ email: text(values.email), name: text(values.name), externalId: text(values['external-id']), role: roleOption(values.role) }), actor)),
      );
    case 'users list':
      return print(await Promise.all((await store.users.list()).map((user) => service.userView(user))));
    case 'users show':
      return print(await service.userView(await service.getUser(await findUserId(store, required(ref, 'user: EMAIL or ID')))));
    case 'users update': {
      const id = await findUserId(store, required(ref, 'user: EMAIL or ID'));
      const fields = given({ email: text(values.email), name: text(values.name), status: text(values.status), externalId: text(values['external-id']), role: roleOption(values.role) });
      return print(await service.userView(await service.updateUser(id, fields, actor)));
    }
    case 'users remove': {
      const id = await findUserId(store, required(ref, 'user: EMAIL or ID'));
      await service.deleteUser(id, actor);
      return print({ id, deleted: true });
    }
    default:
      if (TOKEN_COMMANDS.includes(command)) return print(await runTokenCommand(command, ref, values, store, actor));
      throw new GatewayError('invalid_request', `unknown command "${command}"`);
  }
}
