/**
 * undici, loaded on first use rather than at start-up, and only the part the
 * gateway runs: the keep-alive Agent (with the pools and HTTP/1.1 clients it
 * makes) and the dispatcher's `request()`. undici's index also evaluates
 * fetch, WebSocket, EventSource, the cache stores and the mocks: about 30 ms
 * of the first upstream call (from the code cache) and 3 MB more heap kept
 * for the life of the process, none of it ever used. Every module that
 * talks HTTP outwards gets undici here (type-only imports of 'undici'
 * elsewhere are fine: they vanish at build time); src/types/undici-parts.d.ts
 * types the files loaded, and test/core/undici.test.ts checks they still
 * exist and work in the locked version.
 */
import type { Agent, Dispatcher } from 'undici';

export interface LeanUndici {
  Agent: typeof Agent;
}

let loading: Promise<LeanUndici> | undefined;

/** undici's files are CommonJS: a dynamic import yields their exports as `default` (in the bundle, only there). */
const exportsOf = <T>(namespace: { default?: T }): T => namespace.default ?? (namespace as T);

export function loadUndici(): Promise<LeanUndici> {
  loading ??= Promise.all([import('undici/lib/dispatcher/agent.js'), import('undici/lib/dispatcher/dispatcher.js'), import('undici/lib/api/api-request.js')]).then(([agent, dispatcher, request]) => {
    // What undici's index does for every dispatcher (`Object.assign(Dispatcher.prototype, api)`), for the one method used.
    const prototype = exportsOf(dispatcher).prototype as { request?: unknown };
    prototype.request ??= exportsOf(request);
    return { Agent: exportsOf(agent) };
  });
  return loading;
}

/** One request to an absolute URL through `dispatcher` (undici's top-level `request()` without its global dispatcher). */
export function requestThrough(dispatcher: Dispatcher, url: string | URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return dispatcher.request({ ...options, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}
