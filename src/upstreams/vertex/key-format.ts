/**
 * What a vertex channel's key must look like: with `auth: service-account`
 * (the default), a service-account JSON key naming the account, its private
 * key and, optionally, its token endpoint. Read by the token exchange
 * (auth.ts) and checked when a channel is written (the registry's
 * `keyProblem`), so a pasted key that can never work is refused then, by
 * field, rather than at the first request. Problems never quote the key.
 */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  token_uri: string;
}

/** The fields the exchange needs, or why the key is none. */
export function serviceAccountFields(key: string): ServiceAccountKey | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return 'is not a service-account JSON key (set `auth: access-token` for an access token)';
  }
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  for (const name of ['client_email', 'private_key'] as const) {
    if (typeof fields[name] !== 'string' || fields[name] === '') return `is a JSON key without \`${name}\` (a service-account key has it)`;
  }
  const tokenUri = fields.token_uri ?? GOOGLE_TOKEN_URI;
  if (typeof tokenUri !== 'string' || !/^https?:\/\//.test(tokenUri)) return 'is a service-account key whose `token_uri` is not an http(s) URL';
  return { client_email: fields.client_email as string, private_key: fields.private_key as string, token_uri: tokenUri };
}

/** Why a key can never serve a vertex channel with these settings, or undefined. */
export function vertexKeyProblem(key: string, settings: Record<string, unknown>): string | undefined {
  if (settings.auth === 'access-token') return undefined;
  const read = serviceAccountFields(key);
  return typeof read === 'string' ? read : undefined;
}
