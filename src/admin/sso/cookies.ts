/**
 * The console's cookies: the session (`switchyard_session`, the secret whose
 * SHA-256 is the session's id) and, while a sign-in is at the provider, its
 * state (`switchyard_sso_state`), which ties the callback to the browser that
 * started it. HttpOnly, SameSite=Lax (the provider's redirect back is a
 * top-level navigation, which Lax lets through), Secure when the request came
 * over https (directly or, from a trusted proxy, by X-Forwarded-Proto).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'switchyard_session';
export const STATE_COOKIE = 'switchyard_sso_state';

/** The value of one cookie the request carries; undefined when absent or repeated with other values. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  let found: string | undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    if (found !== undefined && found !== value) return undefined;
    found = value;
  }
  return found && /^[A-Za-z0-9_-]{16,128}$/.test(found) ? found : undefined;
}

interface CookieOptions {
  path: string;
  /** Seconds; 0 clears the cookie. */
  maxAge: number;
}

export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAge}`, 'HttpOnly', 'SameSite=Lax'];
  if (request.protocol === 'https') parts.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string, path: string): void {
  setCookie(request, reply, name, '', { path, maxAge: 0 });
}
