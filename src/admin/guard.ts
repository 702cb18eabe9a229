/**
 * The admin API's one gate. Every route under /admin declares the permission
 * it needs (`config: { permission: 'keys.read' }`) or that it is public
 * (`config: { public: true }`, the sign-in's own routes); a route declaring
 * neither fails at registration, so no endpoint goes without a check. Each
 * request's caller is resolved once (principal.ts), kept on the request for
 * the handlers' team-scoped checks (reach.ts) and the audit log, and checked
 * against the route's permission: no or a bad credential is a 401, a caller
 * without the permission a 403 naming it.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { PERMISSIONS, reachOf, type Permission, type Principal } from './access.js';
import { resolvePrincipal, type PrincipalResolver } from './principal.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller must hold to use an admin route (src/admin/access.ts). */
    permission?: Permission;
    /** An admin route anyone may call, signed in or not (sign-in itself). */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Who calls the admin API; set by the admin gate before the handler runs (null on public routes). */
    principal: Principal | null;
  }
}

const KNOWN = new Set<string>(PERMISSIONS);

/** An admin route as declared: what the permission tests walk, so a new route is covered without being listed. */
export interface DeclaredRoute {
  method: string;
  /** Fastify's pattern, `/admin/keys/:id`. */
  url: string;
  permission: Permission | null;
  public: boolean;
}

const declared = new WeakMap<object, DeclaredRoute[]>();

/** The admin routes registered for one app context (the object `guardAdminRoutes` was given as `owner`). */
export function declaredAdminRoutes(owner: object): readonly DeclaredRoute[] {
  return declared.get(owner) ?? [];
}

/** How a refusal names the caller: their role, and the teams they administer. */
export function describeRole(principal: Principal): string {
  const role = principal.role ?? 'none';
  const teams = principal.adminOf.length;
  return teams > 0 ? `${role} (team admin of ${teams} team${teams === 1 ? '' : 's'})` : role;
}

export function guardAdminRoutes(app: FastifyInstance, resolvers: readonly PrincipalResolver[], owner: object): void {
  app.decorateRequest('principal', null);
  const routes: DeclaredRoute[] = [];
  declared.set(owner, routes);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { permission?: string; public?: boolean };
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    if (config.public !== true) {
      if (config.permission === undefined) throw new Error(`admin route ${methods} ${route.url} declares no permission (config: { permission }) and is not public`);
      if (!KNOWN.has(config.permission)) throw new Error(`admin route ${methods} ${route.url} declares an unknown permission "${config.permission}"`);
    }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      routes.push({ method, url: route.url, permission: (config.permission as Permission | undefined) ?? null, public: config.public === true });
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public === true) return;
    const principal = await resolvePrincipal(request, resolvers);
    request.principal = principal;
    // Only a request no route matched has no permission: being signed in is enough to be told there is nothing here.
    const permission = config.permission;
    if (permission && !reachOf(principal, permission)) {
      throw new GatewayError('permission', `this needs the ${permission} permission; your role is ${describeRole(principal)}`);
    }
  });
}
