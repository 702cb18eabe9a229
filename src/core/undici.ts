/**
 * undici, loaded on first use rather than at start-up: evaluating it costs
 * about a tenth of a second of the gateway's cold start, and /healthz, the
 * admin API and every request before the first upstream call never need it.
 * Every module that talks HTTP outwards gets undici here (type-only imports
 * of 'undici' elsewhere are fine: they vanish at build time).
 */
type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  // undici is CommonJS: its exports object is the namespace's default (in the
  // bundle, the only thing a dynamic import of it yields).
  loading ??= import('undici').then((namespace) => (namespace as unknown as { default?: Undici }).default ?? namespace);
  return loading;
}
