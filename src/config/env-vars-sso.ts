/**
 * The single sign-on section of the environment table (`env-vars.ts`): the
 * console's OpenID Connect provider. Every entry is read as text and judged
 * by admin/sso/settings.ts when sign-on is first used, so that a wrong value
 * turns sign-on off, named, instead of stopping the start.
 */
import type { EnvVarSpec } from './env-var-spec.js';

export const SSO_ENV_VARS = {
  SWITCHYARD_SSO_ISSUER: {
    kind: 'string',
    section: 'sso',
    description:
      "Turns single sign-on for the console on: the OpenID Connect provider's issuer URL (Okta, Entra ID `https://login.microsoftonline.com/<tenant>/v2.0`, Google `https://accounts.google.com`, Keycloak `…/realms/<realm>`). Its discovery document is fetched at the first sign-in, not at start.",
  },
  SWITCHYARD_SSO_CLIENT_ID: { kind: 'string', section: 'sso', description: 'The client id the provider gave the gateway; required with the issuer.' },
  SWITCHYARD_SSO_CLIENT_SECRET: {
    kind: 'string',
    secret: true,
    defaultText: 'none: a public client, PKCE only',
    section: 'sso',
    description: "The client's secret (sent with `client_secret_post`); never shown or logged.",
  },
  SWITCHYARD_SSO_REDIRECT_URL: {
    kind: 'string',
    defaultText: '`SWITCHYARD_PUBLIC_URL` + `/admin/auth/oidc/callback`',
    section: 'sso',
    description: "The callback address registered at the provider; it must end in `/admin/auth/oidc/callback`. Never taken from a request's Host header: set this or `SWITCHYARD_PUBLIC_URL`.",
  },
  SWITCHYARD_SSO_SCOPES: { kind: 'string', default: 'openid email profile', section: 'sso', description: 'The scopes asked for, separated by spaces (`openid` is always added).' },
  SWITCHYARD_SSO_GROUPS_CLAIM: {
    kind: 'string',
    default: 'groups',
    section: 'sso',
    description: "The claim of the ID token (else of the userinfo answer) that lists the person's groups, which the config file's `sso` section maps to roles and teams.",
  },
  SWITCHYARD_SSO_LABEL: { kind: 'string', default: 'single sign-on', section: 'sso', description: 'The provider\'s name on the console\'s button ("Sign in with …").' },
  SWITCHYARD_SSO_SESSION_HOURS: { kind: 'string', default: '12', section: 'sso', description: 'How long a console session lasts, in hours (a whole number from 1 to 720).' },
} as const satisfies Record<string, EnvVarSpec>;
