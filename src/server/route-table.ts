/**
 * The methods each registered route answers, so a known path asked with the
 * wrong method gets 405 with `Allow` instead of a bare "no route" (the
 * router itself only knows method and path together).
 */
import type { FastifyInstance } from 'fastify';

interface Route {
  method: string;
  pattern: RegExp;
}

/** `/ig/task/:id/fetch` → a pattern matching concrete paths; `*` matches the rest of the path. */
function compile(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export class RouteTable {
  private readonly routes: Route[] = [];

  /** Records every route registered on `app` or its child scopes from now on. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (options) => {
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      for (const method of methods) this.routes.push({ method: method.toUpperCase(), pattern: compile(options.url) });
    });
  }

  /** The methods some route answers on `path` (not decoded, no query). */
  methodsFor(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) methods.add(route.method);
    return [...methods].sort();
  }
}
