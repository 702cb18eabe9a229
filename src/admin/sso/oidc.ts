/**
 * The OpenID Connect client (openid-client, loaded at the first sign-in, not
 * at start): discovery, the authorization URL with PKCE (S256), state and
 * nonce, and the code exchange with the ID token's validation. Discovery is
 * kept once it succeeded; a failed one is tried again at the next sign-in (the
 * provider may be down at start). Errors leave here as gateway errors whose
 * messages name no runtime text.
 */
import { GatewayError } from '../../core/errors.js';
import type { SsoConfig } from './settings.js';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

let loading: Promise<OpenIdClient> | undefined;
const openIdClient = (): Promise<OpenIdClient> => (loading ??= import('openid-client'));

/** What a sign-in sends to the provider and its callback needs back. */
export interface LoginStart {
  url: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** The person as the provider names them. */
export interface SignedInIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean | null;
  name: string | null;
  groups: string[];
  /** The provider's session id (`sid`), when it names one. */
  sid: string | null;
}

export const providerUnreachable = () => new GatewayError('unavailable', 'the sign-in provider could not be reached; try again in a moment', { status: 503 });

export class OidcClient {
  private discovered?: Promise<Configuration>;

  constructor(private readonly config: SsoConfig) {}

  private async configuration(): Promise<{ client: OpenIdClient; configuration: Configuration }> {
    const client = await openIdClient();
    if (!this.discovered) {
      const { issuer, clientId, clientSecret, insecure } = this.config;
      const auth = clientSecret ? client.ClientSecretPost(clientSecret) : client.None();
      const found = client.discovery(issuer, clientId, undefined, auth, { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10 });
      this.discovered = found;
      found.catch(() => {
        if (this.discovered === found) this.discovered = undefined;
      });
    }
    try {
      return { client, configuration: await this.discovered };
    } catch {
      throw providerUnreachable();
    }
  }

  async start(): Promise<LoginStart> {
    const { client, configuration } = await this.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.config.redirectUrl,
      scope: this.config.scope,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, codeVerifier, nonce };
  }

  /** Exchanges the callback's code and validates the ID token; `query` is the callback's query string. */
  async finish(query: string, expected: { state: string; codeVerifier: string; nonce: string }): Promise<SignedInIdentity> {
    const { client, configuration } = await this.configuration();
    // The callback's address as registered, never as the request's Host header says.
    const current = new URL(this.config.redirectUrl);
    current.search = query;
    let tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusal(client, error);
    }
    const claims: Record<string, unknown> = { ...tokens.claims() };
    const subject = String(claims.sub);
    // What the ID token does not carry (some providers leave email and groups to userinfo), userinfo adds.
    let source: Record<string, unknown> = claims;
    if (claims.email === undefined || claims[this.config.groupsClaim] === undefined) {
      try {
        source = { ...(await client.fetchUserInfo(configuration, tokens.access_token, subject)), ...claims };
      } catch (error) {
        throw refusal(client, error);
      }
    }
    return {
      subject,
      email: typeof source.email === 'string' ? source.email : null,
      emailVerified: typeof source.email_verified === 'boolean' ? source.email_verified : null,
      name: typeof source.name === 'string' ? source.name : null,
      groups: groupsOf(source[this.config.groupsClaim]),
      sid: typeof claims.sid === 'string' ? claims.sid : null,
    };
  }
}

/** A claim's groups: a list of names (or one name); anything else is none. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is string => typeof entry === 'string');
}

/** The provider refused or its answer did not verify: a 4xx naming the OAuth error code only; anything else, unreachable. */
function refusal(client: OpenIdClient, error: unknown): GatewayError {
  if (error instanceof client.AuthorizationResponseError) return new GatewayError('authentication', `the provider did not sign you in (${safeCode(error.error)})`);
  if (error instanceof client.ResponseBodyError) return new GatewayError('authentication', `the provider refused the sign-in (${safeCode(error.error)}); start again`);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('OAUTH_')) return new GatewayError('authentication', "the provider's answer could not be verified; start again");
  return providerUnreachable();
}

const safeCode = (code: unknown): string => (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : 'error');
