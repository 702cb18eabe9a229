/**
 * The gateway's settings as an operator may read them (the admin API's
 * `/admin/settings`, the console): every variable of env-vars.ts with the
 * value in effect and where it came from. Credentials show only whether they
 * are set; addresses lose their user, password and query string.
 */
import { ENV_SECTIONS } from './env-var-spec.js';
import { ENV_VARS } from './env-vars.js';

export interface SettingView {
  name: string;
  section: string;
  value: string | number | null;
  source: 'environment' | 'default';
  description: string;
}

const CREDENTIALS = new Set(['SWITCHYARD_ADMIN_KEY', 'SWITCHYARD_SECRET_KEY']);
const ADDRESSES = new Set(['SWITCHYARD_DATABASE_URL', 'SWITCHYARD_REDIS_URL', 'SWITCHYARD_NOTIFY_HOOK', 'SWITCHYARD_PUBLIC_URL']);

/** An address without credentials or query string; unreadable text is not shown at all. */
function safeAddress(text: string): string {
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return '(set, not a URL)';
  }
}

export function settingsView(env: Record<string, string | undefined>): SettingView[] {
  return Object.entries(ENV_VARS).map(([name, spec]) => {
    const raw = env[name]?.trim();
    const described = { name, section: ENV_SECTIONS[spec.section], description: spec.description };
    if (raw === undefined || raw === '') {
      const fallback = 'default' in spec ? spec.default : 'defaultText' in spec ? spec.defaultText : null;
      return { ...described, value: fallback ?? null, source: 'default' as const };
    }
    // Addresses first: a database URL is a secret whose host may be shown.
    const value = ADDRESSES.has(name) ? safeAddress(raw) : CREDENTIALS.has(name) || ('secret' in spec && spec.secret) ? '(set)' : raw;
    return { ...described, value, source: 'environment' as const };
  });
}
