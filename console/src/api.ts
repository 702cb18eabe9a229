/**
 * The console's only way to the gateway: the admin API with the admin key
 * or a personal admin token kept in sessionStorage (gone when the tab closes), errors read from the
 * admin shape `{error: {message, type, param?}}`. A 401 logs out.
 */

import { ApiError } from './api-error.js';

const ADMIN_KEY = 'switchyard.adminKey';

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

/** Called when the key is set or cleared (log in, log out, a 401). */
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
  const headers: Record<string, string> = { authorization: `Bearer ${key ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path.startsWith('/') ? path : `/admin/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && key === adminKey()) setAdminKey(null);
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
