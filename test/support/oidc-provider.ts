/**
 * A real OpenID Connect provider for the single sign-on tests: `oidc-provider`
 * on a loopback port, with its development interactions (a login form that
 * takes any login and password, then a consent form). One confidential
 * client, PKCE required, registered with the gateway's callback addresses.
 * People are looked up by login in `accounts`; a login not listed is a
 * person `<login>@example.test` in no group. Groups are released with the
 * `profile` scope, as `groups`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestAccount {
  email?: string;
  name?: string;
  groups?: string[];
  emailVerified?: boolean;
}

export interface OidcProviderOptions {
  redirectUris: string[];
  accounts?: Record<string, TestAccount>;
  /** Claims only in userinfo, not in the ID token (as many providers do for the code flow). */
  userinfoOnly?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The SWITCHYARD_SSO_* variables that point a gateway at this provider. */
  env(redirectUrl: string): Record<string, string>;
  close(): Promise<void>;
}

export const TEST_CLIENT_ID = 'switchyard-console';
export const TEST_CLIENT_SECRET = 'test-client-secret-5f0c8a1e9b7d4c2a';

/** A port free right now on loopback (for a gateway whose callback address the provider must know first). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<TestOidcProvider> {
  const { default: Provider } = await import('oidc-provider');
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = options.accounts ?? {};
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    conformIdTokenClaims: options.userinfoOnly ?? false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-for-the-provider-only'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, login) {
      const account = accounts[login] ?? {};
      return {
        accountId: login,
        async claims() {
          return {
            sub: login,
            email: account.email ?? `${login}@example.test`,
            email_verified: account.emailVerified ?? true,
            name: account.name ?? login,
            groups: account.groups ?? [],
          };
        },
      };
    },
  });
  // The provider checks the protocol of its own requests; tests speak plain http on loopback.
  provider.proxy = false;
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    env: (redirectUrl) => ({
      SWITCHYARD_SSO_ISSUER: issuer,
      SWITCHYARD_SSO_CLIENT_ID: TEST_CLIENT_ID,
      SWITCHYARD_SSO_CLIENT_SECRET: TEST_CLIENT_SECRET,
      SWITCHYARD_SSO_REDIRECT_URL: redirectUrl,
      SWITCHYARD_SSO_LABEL: 'Test IdP',
    }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
