/**
 * The Bearer token a vertex channel's key stands for. With `auth:
 * access-token` the key is the token, sent as it is. With `auth:
 * service-account` the key is a service-account JSON key: google-auth-library's
 * JWT client signs an assertion with its private key and exchanges it at the
 * key's `token_uri` (Google's own by default; a private or test token
 * endpoint otherwise) for an access token with the cloud-platform scope.
 *
 * Tokens are kept per key until shortly before they expire (five minutes, or
 * a quarter of a short token's life), then fetched again in the background
 * while the old one still serves; a key without a usable token waits for its
 * one fetch in flight, shared by every request that needs it. The cached case
 * returns a string, so a request with a token in hand sends with no await.
 * A token that cannot be had is the channel's credential refused (a 401 to
 * the breakers: the key is benched and the request fails over), with a
 * message naming the cause, never the key or the token.
 */
import { GatewayError } from '../../core/errors.js';
import { TokenCache, type FetchedToken } from '../token-cache.js';
import { serviceAccountFields, type ServiceAccountKey } from './key-format.js';

export { GOOGLE_TOKEN_URI } from './key-format.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** A token endpoint that does not answer within this is a failed fetch. */
const TOKEN_TIMEOUT_MS = 15_000;
/** Keys remembered at most (keys rotated out of every channel are forgotten first). */
const MAX_KEYS = 512;

const tokens = new TokenCache<string>(MAX_KEYS);
/** Each key's `project_id`, read once ('' when it names none or is no JSON key). */
const projects = new Map<string, string>();

/**
 * The access token for a service-account key: a string when one is held and
 * fresh enough, a promise when it must be fetched. `channel` names the
 * channel in a refusal.
 */
export function serviceAccountToken(key: string, channel: string): string | Promise<string> {
  return tokens.get(key, () => fetchToken(key, channel));
}

/** The `project_id` a service-account key names, read once per key; undefined when it names none. */
export function keyProject(key: string): string | undefined {
  let project = projects.get(key);
  if (project === undefined) {
    let named: unknown;
    try {
      named = (JSON.parse(key) as { project_id?: unknown }).project_id;
    } catch {
      // Not a JSON key: the token fetch says so.
    }
    project = typeof named === 'string' ? named : '';
    if (projects.size >= MAX_KEYS) projects.delete(projects.keys().next().value as string);
    projects.set(key, project);
  }
  return project || undefined;
}

/** The fields of a service-account key the exchange needs, or a refusal saying why it has none (never quoting the key). */
export function readServiceAccountKey(key: string, channel: string): ServiceAccountKey {
  const read = serviceAccountFields(key);
  if (typeof read === 'string') throw tokenRefused(channel, `its key ${read}`);
  return read;
}

async function fetchToken(key: string, channel: string): Promise<FetchedToken<string>> {
  const account = readServiceAccountKey(key, channel);
  const { JWT } = await import('google-auth-library');
  // The assertion's audience is the token endpoint it is sent to; the library writes Google's own unless told.
  const client = new JWT({ email: account.client_email, key: account.private_key, scopes: [CLOUD_PLATFORM_SCOPE], additionalClaims: { aud: account.token_uri } });
  const tokenUrl = new URL(account.token_uri);
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      options.url = tokenUrl;
      options.timeout = TOKEN_TIMEOUT_MS;
      return options;
    },
  });
  const started = Date.now();
  let credentials: { access_token?: string | null; expiry_date?: number | null };
  try {
    credentials = await client.authorize();
  } catch (error) {
    throw tokenRefused(channel, `the token endpoint refused ${account.client_email}: ${causeOf(error)}`);
  }
  if (!credentials.access_token) throw tokenRefused(channel, `the token endpoint gave ${account.client_email} no access token`);
  return { value: credentials.access_token, expiresAt: credentials.expiry_date ?? started + 3_600_000 };
}

function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

/** A token that could not be had, read by the breakers as the upstream refusing the credential (401). */
export function tokenRefused(channel: string, reason: string): GatewayError {
  return credentialUnusable(channel, `no access token: ${reason}`);
}

/** A channel whose credential cannot be used (no token, no project to call for), read by the breakers as a refused credential (401): the key is benched and the request fails over. */
export function credentialUnusable(channel: string, problem: string): GatewayError {
  return new GatewayError('upstream_error', `vertex channel ${channel}: ${problem}`, { status: 502, upstreamStatus: 401, retryable: true });
}

/** Forgets every held token (tests). */
export function forgetTokens(): void {
  tokens.clear();
  projects.clear();
}
