/**
 * Single sign-on's settings, judged once at start from the SWITCHYARD_SSO_*
 * variables and the config file's `sso` section. A wrong value turns sign-on
 * off with the problem named (a log line at start, and the console's probe
 * and the login route say it); it never stops the gateway.
 */
import type { GatewaySettings } from '../../config/env.js';
import type { ConfigFile } from '../../config/file.js';
import { ssoSchema, type SsoMapping } from '../../config/sso-schema.js';

export const CALLBACK_PATH = '/admin/auth/oidc/callback';

export interface SsoConfig {
  issuer: URL;
  clientId: string;
  /** Absent: a public client, PKCE only. */
  clientSecret?: string;
  redirectUrl: string;
  scope: string;
  groupsClaim: string;
  label: string;
  sessionMs: number;
  mapping: SsoMapping;
  /** Plain http to a loopback provider (a local test provider); anything else must be https. */
  insecure: boolean;
}

export type SsoSetup = { state: 'off' } | { state: 'broken'; problem: string; label: string } | { state: 'on'; config: SsoConfig };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function urlOf(text: string): URL | undefined {
  return URL.canParse(text) ? new URL(text) : undefined;
}

export function ssoSetup(settings: Pick<GatewaySettings, 'sso' | 'publicUrl'>, file: ConfigFile | undefined): SsoSetup {
  const env = settings.sso;
  const label = env.label.slice(0, 80);
  if (!env.issuer) return env.clientId ? { state: 'broken', problem: 'SWITCHYARD_SSO_CLIENT_ID is set but SWITCHYARD_SSO_ISSUER is not', label } : { state: 'off' };
  const broken = (problem: string): SsoSetup => ({ state: 'broken', problem, label });
  const issuer = urlOf(env.issuer);
  if (!issuer || !/^https?:$/.test(issuer.protocol)) return broken('SWITCHYARD_SSO_ISSUER must be an https URL');
  const insecure = issuer.protocol === 'http:';
  if (insecure && !LOOPBACK.has(issuer.hostname)) return broken('SWITCHYARD_SSO_ISSUER must be an https URL (plain http only to a loopback address)');
  if (!env.clientId) return broken('SWITCHYARD_SSO_CLIENT_ID is required with SWITCHYARD_SSO_ISSUER');
  const redirectText = env.redirectUrl ?? (settings.publicUrl && `${settings.publicUrl}${CALLBACK_PATH}`);
  if (!redirectText) return broken('set SWITCHYARD_SSO_REDIRECT_URL (or SWITCHYARD_PUBLIC_URL) to the address the provider sends people back to');
  const redirect = urlOf(redirectText);
  if (!redirect || !/^https?:$/.test(redirect.protocol) || !redirect.pathname.endsWith(CALLBACK_PATH) || redirect.search || redirect.hash)
    return broken(`SWITCHYARD_SSO_REDIRECT_URL must be an http(s) URL ending in ${CALLBACK_PATH}, without a query`);
  const hours = Number(env.sessionHours);
  if (!Number.isInteger(hours) || hours < 1 || hours > 720) return broken('SWITCHYARD_SSO_SESSION_HOURS must be a whole number of hours from 1 to 720');
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(env.groupsClaim)) return broken('SWITCHYARD_SSO_GROUPS_CLAIM must be a claim name (letters, digits, _ . -)');
  const scopes = new Set(env.scopes.split(/\s+/).filter(Boolean));
  if ([...scopes].some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) return broken('SWITCHYARD_SSO_SCOPES must be scope names separated by spaces');
  if (file?.ssoProblems?.length) return broken(`the config file's sso section: ${file.ssoProblems.join('; ')}`);
  return {
    state: 'on',
    config: {
      issuer,
      clientId: env.clientId,
      clientSecret: env.clientSecret,
      redirectUrl: redirect.toString(),
      scope: ['openid', ...[...scopes].filter((scope) => scope !== 'openid')].join(' '),
      groupsClaim: env.groupsClaim,
      label,
      sessionMs: hours * 3_600_000,
      mapping: file?.sso ?? ssoSchema().parse({}),
      insecure,
    },
  };
}
