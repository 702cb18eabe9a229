/**
 * The console's only way to the gateway: the admin API with the admin key
 * or a personal admin token kept in sessionStorage (gone when the tab closes), or with the session
 * cookie of a single sign-on (HttpOnly: the console never sees it; it asks
 * `/admin/auth/session` who is signed in). Every call sends
 * `x-switchyard-csrf`, which the gateway wants of cookie-authenticated
 * writes. Errors are read from the admin shape `{error: {message, type,
 * param?}}`. A 401 logs out.
 */

import { ApiError } from './api-error.js';

const ADMIN_KEY = 'switchyard.adminKey';
const CSRF = { 'x-switchyard-csrf': '1' };

/** The person a single sign-on session stands for. */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: string | null;
}

/** Whether single sign-on is on, and the provider's name for the button. */
export interface SsoInfo {
  enabled: boolean;
  label?: string;
}

let sessionUser: SessionUser | null = null;

export { ApiError };

type Listener = () => void;
const listeners = new Set<Listener>();

export function adminKey(): string | null {
  return sessionStorage.getItem(ADMIN_KEY);
}

export function setAdminKey(key: string | null): void {
  if (key) sessionStorage.setItem(ADMIN_KEY, key);
  else sessionStorage.removeItem(ADMIN_KEY);
  for (const listener of listeners) listener();
}

export const signedInUser = (): SessionUser | null => sessionUser;

/** Signed in by the admin key or by a session. */
export const signedIn = (): boolean => adminKey() !== null || sessionUser !== null;

function setSessionUser(user: SessionUser | null): void {
  sessionUser = user;
  for (const listener of listeners) listener();
}

/** Asks the gateway whether a session is signed in (and whether sign-on is on), before the login is shown. */
export async function probeSession(): Promise<SsoInfo> {
  try {
    const response = await fetch('/admin/auth/session', { credentials: 'same-origin', headers: CSRF });
    const body = (await response.json()) as { user?: SessionUser; sso?: SsoInfo };
    if (response.ok && body.user) setSessionUser(body.user);
    return body.sso ?? { enabled: false };
  } catch {
    return { enabled: false };
  }
}

/** Logs out: forgets the admin key, and ends the session at the gateway. */
export async function signOut(): Promise<void> {
  if (sessionUser) await fetch('/admin/auth/logout', { method: 'POST', credentials: 'same-origin', headers: CSRF }).catch(() => undefined);
  sessionUser = null;
  setAdminKey(null);
}

/** Called when the key or the session is set or cleared (log in, log out, a 401). */
export function onKeyChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The error an answer carries, whatever its family's shape. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let message = text.slice(0, 500) || response.statusText;
  let type = 'error';
  let param: string | undefined;
  try {
    const body = JSON.parse(text);
    const error = body?.error ?? body;
    if (typeof error?.message === 'string') message = error.message;
    else if (typeof body?.description === 'string') message = body.description;
    if (typeof error?.type === 'string') type = error.type;
    if (typeof error?.param === 'string' && error.param) param = error.param;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return new ApiError(message, response.status, type, param);
}

/** Query string from the set values only. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function adminFetch(method: string, path: string, body?: unknown, key = adminKey()): Promise<Response> {
  // Without a key, the session cookie (sent same-origin) signs the call in.
  const headers: Record<string, string> = { ...CSRF, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path.startsWith('/') ? path : `/admin/${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && key === adminKey()) {
      if (key) setAdminKey(null);
      else if (sessionUser) setSessionUser(null);
    }
    throw error;
  }
  return response;
}

/** An admin API call (`path` relative to /admin, or absolute) answering JSON. */
export async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await adminFetch(method, path, body);
  return (await response.json()) as T;
}

export const get = <T>(path: string) => admin<T>('GET', path);

/** One model's price (`*` and `prefix*` too): the model is one path segment, encoded. */
export const pricePath = (model: string) => `prices/${encodeURIComponent(model)}`;

/** Checks a key or token before keeping it: a wrong one is refused here, not on the first view. */
export async function checkAdminKey(key: string): Promise<void> {
  await adminFetch('GET', 'me', undefined, key);
}

/** Media behind the admin key, as a blob the page can show by blob: URL. */
export async function adminBlob(path: string): Promise<Blob> {
  const response = await adminFetch('GET', path);
  return response.blob();
}
