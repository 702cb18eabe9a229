/** What the as-is walk (`accept-as-is.ts`) answers of a value, and the zod internals it reads. */

export const ACCEPT = 0;
export const REJECT = 1;
export const UNSURE = 2;
export type Verdict = typeof ACCEPT | typeof REJECT | typeof UNSURE;
export type Acceptor = (value: unknown) => Verdict;

/** The zod internals read here; part of zod's documented definition objects. */
export interface Internals {
  // biome-ignore lint/suspicious/noExplicitAny: zod's internal definition differs per schema kind; only the keys read here are typed
  def: Record<string, any> & { type: string; checks?: Check[] };
  traits?: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
}
export interface Check {
  _zod: { def: { check: string; when?: (payload: Payload) => boolean }; check: (payload: Payload) => unknown };
}
export interface Payload {
  value: unknown;
  issues: unknown[];
}
export type Schema = { _zod: Internals };

export const unsure: Acceptor = () => UNSURE;
export const acceptAll: Acceptor = () => ACCEPT;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const hasOwn = (value: object, key: string) => Object.hasOwn(value, key);

/** Either one refusing means zod refuses; otherwise either one unsure leaves it unsure. */
export function worse(a: Verdict, b: Verdict): Verdict {
  return a === REJECT || b === REJECT ? REJECT : a === UNSURE || b === UNSURE ? UNSURE : ACCEPT;
}
