import { userInfo } from 'node:os';
import type pg from 'pg';

/**
 * Connection settings for a postgres:// URL. Like libpq, a URL without a user
 * falls back to PGUSER, then to the operating-system user (node-postgres only
 * reads $USER, which service managers and containers often leave unset).
 */
export function postgresConnection(url: string): pg.ClientConfig {
  if (process.env.PGUSER || process.env.USER) return { connectionString: url };
  // The URL's (empty) user overrides a `user` option, so the user goes into the URL.
  return { connectionString: withDefaultUser(url) };
}

/** The URL without its password, for error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}

function withDefaultUser(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username === '' ? currentUser() : undefined;
    if (user === undefined) return url;
    parsed.username = encodeURIComponent(user);
    return parsed.toString();
  } catch {
    return url;
  }
}

function currentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
