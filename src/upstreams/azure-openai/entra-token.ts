/**
 * Microsoft Entra ID tokens for an azure-openai channel with `auth: entra-id`:
 * the OAuth 2.0 client-credentials grant (one form POST to the tenant's
 * token endpoint with the application's id and secret, the secret being the
 * channel's key), made over the gateway's own HTTP client.
 *
 * A token is kept per credential (token endpoint, client, scope, secret)
 * until shortly before it expires; a request then finds its headers ready
 * (a record, no await). Within the refresh margin the current token still
 * serves while one refresh runs; an expired or missing token is fetched once
 * for all the requests that wait on it. A refused or failed fetch is thrown
 * as the upstream refusing the credential (a 401), so the key or channel is
 * benched as for an upstream 401; its message names the cause, never the
 * secret, and no token is ever logged.
 */
import { upstreamStatusError, type GatewayError } from '../../core/errors.js';
import type { RequestHeaders } from '../endpoint.js';
import { readErrorText } from '../error-answer.js';
import type { UpstreamHeaders } from '../headers.js';
import { parseJsonAnswer, toUpstreamError } from '../http.js';
import type { UpstreamCall } from '../types.js';
import { requestWholeOk } from '../whole-answer.js';
import { TokenCache, type FetchedToken } from '../token-cache.js';
import type { AzureOpenAiSettings } from './settings.js';

const TOKEN_TIMEOUT_MS = 30_000;
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/** The headers carrying each credential's token, built once per token. */
const tokens = new TokenCache<RequestHeaders>(1000);

/** The token endpoint a channel's grant goes to. */
export function tokenEndpointOf(settings: AzureOpenAiSettings): string {
  // The tenant's address is derived from another key, so it cannot be the schema's default.
  if (settings.tokenEndpoint) return settings.tokenEndpoint;
  return `https://login.microsoftonline.com/${encodeURIComponent(String(settings.tenantId))}/oauth2/v2.0/token`;
}

/** The headers with a Bearer token for this call's credential: a record when a fresh token is cached, a promise when one must be fetched. */
export function entraHeaders(settings: AzureOpenAiSettings, call: UpstreamCall): RequestHeaders | Promise<RequestHeaders> {
  const clientId = settings.clientId;
  // Refused as the exchange would be (a rejected promise, never a throw out of `headers()`).
  if (!clientId) return Promise.reject(tokenFailure('the channel names no clientId for auth entra-id'));
  if (!settings.tokenEndpoint && !settings.tenantId) return Promise.reject(tokenFailure('the channel names no tenantId (nor a tokenEndpoint) for auth entra-id'));
  const endpoint = tokenEndpointOf(settings);
  const key = `${endpoint}\n${clientId}\n${settings.scope}\n${call.apiKey}`;
  return tokens.get(key, () => fetchToken(endpoint, clientId, settings.scope, call));
}

async function fetchToken(endpoint: string, clientId: string, scope: string, call: UpstreamCall): Promise<FetchedToken<RequestHeaders>> {
  const startedAt = Date.now();
  const answer = await requestToken(endpoint, clientId, scope, call);
  return { value: { 'content-type': 'application/json', authorization: `Bearer ${answer.token}` }, expiresAt: startedAt + answer.expiresIn * 1000 };
}

interface TokenAnswer {
  token: string;
  expiresIn: number;
}

async function requestToken(endpoint: string, clientId: string, scope: string, call: UpstreamCall): Promise<TokenAnswer> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: call.apiKey, scope }).toString();
  let bytes: Buffer;
  try {
    // Not the client's signal: a token shared by waiting requests is fetched even when the first of them goes away.
    const answer = await requestWholeOk(
      {
        url: endpoint,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS) as unknown as UpstreamCall['signal'],
        timeoutMs: TOKEN_TIMEOUT_MS,
        secrets: [call.apiKey],
        throwStatus: throwTokenRefusal,
      },
      MAX_TOKEN_ANSWER_BYTES,
    );
    bytes = answer.bytes;
  } catch (error) {
    const failure = toUpstreamError(error);
    if (failure.upstreamStatus === 401) throw failure;
    throw tokenFailure(`the token endpoint could not be reached (${failure.message})`);
  }
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = parseJsonAnswer(bytes);
  } catch {
    throw tokenFailure('the token endpoint answered with no JSON');
  }
  const expiresIn = Number(parsed.expires_in);
  if (typeof parsed.access_token !== 'string' || parsed.access_token === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw tokenFailure('the token endpoint answered without an access_token and its expires_in');
  }
  return { token: parsed.access_token, expiresIn };
}

/** The token endpoint's refusal (`error`, and the AADSTS code of `error_description`) as a refused credential. */
async function throwTokenRefusal(status: number, _headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[]): Promise<never> {
  const text = await readErrorText(body);
  let cause = `HTTP ${status}`;
  try {
    const answer = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    const code = typeof answer.error_description === 'string' ? /AADSTS\d+/.exec(answer.error_description)?.[0] : undefined;
    if (typeof answer.error === 'string') cause = `${answer.error}${code ? ` ${code}` : ''}, HTTP ${status}`;
  } catch {
    // Not JSON: the status is all that is said.
  }
  for (const secret of secrets) if (secret.length >= 8) cause = cause.split(secret).join('[redacted]');
  throw tokenFailure(`the token endpoint refused the client credentials (${cause})`);
}

/** A token that could not be had: the credential refused, as an upstream 401 is (benches the key or the channel, fails over). */
export function tokenFailure(cause: string): GatewayError {
  return upstreamStatusError(401, `Entra ID token request failed: ${cause}`);
}

/** Forgets every cached token (tests). */
export function clearEntraTokens(): void {
  tokens.clear();
}
