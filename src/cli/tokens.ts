/**
 * The CLI's personal admin token commands, through the operations the admin
 * API uses (admin/admin-tokens.ts). The way back in when no one can sign in:
 * `users add --email x --role owner`, then `tokens create --user x`.
 */
import { createAdminToken, revokeAdminToken, tokenView } from '../admin/admin-tokens.js';
import { GatewayError } from '../core/errors.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';

export const TOKEN_USAGE = `  tokens create --user EMAIL|ID [--name NAME] [--expires-days N]
                            a personal admin token acting as the user; prints its secret once
  tokens list [--user EMAIL|ID]
  tokens revoke ID
`;

export const TOKEN_COMMANDS = ['tokens create', 'tokens list', 'tokens revoke'];

export const TOKEN_OPTIONS = { 'expires-days': { type: 'string' } } as const;

type Values = Record<string, string | boolean | string[] | undefined>;

async function userOf(store: Store, ref: string) {
  const user = (await store.users.get(ref)) ?? (await store.users.getByEmail(ref));
  if (!user) throw new GatewayError('not_found', `no user with email or id "${ref}"`);
  return user;
}

export async function runTokenCommand(command: string, ref: string | undefined, values: Values, store: Store, actor: AuditActor): Promise<unknown> {
  const userRef = typeof values.user === 'string' ? values.user : undefined;
  switch (command) {
    case 'tokens create': {
      if (!userRef) throw new GatewayError('invalid_request', 'name the user: --user EMAIL or ID');
      const user = await userOf(store, userRef);
      const days = values['expires-days'];
      const input = { ...(typeof values.name === 'string' ? { name: values.name } : {}), ...(typeof days === 'string' ? { expiresInDays: Number(days) } : {}) };
      const { record, secret } = await createAdminToken(store, user, input, actor);
      return { ...tokenView(record), email: user.email, token: secret, note: 'shown once; send it as Authorization: Bearer <token> to the admin API, or paste it into the console' };
    }
    case 'tokens list': {
      const tokens = await store.adminTokens.list(userRef ? (await userOf(store, userRef)).id : undefined);
      const emails = new Map((await store.users.list()).map((user) => [user.id, user.email]));
      return tokens.map((token) => ({ ...tokenView(token), email: emails.get(token.userId) ?? null }));
    }
    case 'tokens revoke':
      if (!ref) throw new GatewayError('invalid_request', 'name the token: its ID');
      return tokenView(await revokeAdminToken(store, ref, null, actor));
    default:
      throw new GatewayError('invalid_request', `unknown command "${command}"`);
  }
}
