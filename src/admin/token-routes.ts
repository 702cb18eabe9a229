/**
 * The caller and personal admin tokens:
 *
 *   GET               /admin/me                     who is calling, their role, teams administered and permissions
 *   GET/POST          /admin/me/tokens              the caller's own tokens / create one (the secret shown once)
 *   DELETE            /admin/me/tokens/:id          revoke one of them
 *   GET               /admin/users/:id/tokens       a person's tokens (access.write)
 *   DELETE            /admin/users/:id/tokens/:tokenId   revoke one (access.write)
 *
 * The admin key is no person: it has no tokens of its own (400).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import type { UserRecord } from '../storage/team-types.js';
import { permissionsOf } from './access.js';
import { createAdminToken, revokeAdminToken, tokenView } from './admin-tokens.js';
import { actorOf } from './audit-actor.js';
import { principalOf } from './reach.js';

export function registerTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  const self = { config: { permission: 'self' as const } };
  const access = { config: { permission: 'access.write' as const } };

  const personOf = (request: FastifyRequest): UserRecord => {
    const { user } = principalOf(request);
    if (!user) throw new GatewayError('invalid_request', 'the admin key is no person and has no admin tokens; sign in with your own token, or manage a person’s tokens under /admin/users/{id}/tokens');
    return user;
  };
  const userOr404 = async (id: string) => {
    const user = await ctx.store.users.get(id);
    if (!user) throw new GatewayError('not_found', `no user with id "${id}"`);
    return user;
  };

  app.get('/me', self, async (request) => {
    const principal = principalOf(request);
    const teams = await Promise.all(principal.adminOf.map((id) => ctx.store.teams.get(id)));
    return {
      kind: principal.kind,
      user: principal.user && { id: principal.user.id, email: principal.user.email, name: principal.user.name },
      role: principal.role,
      adminOf: teams.flatMap((team) => (team ? [{ id: team.id, name: team.name }] : [])),
      permissions: permissionsOf(principal),
    };
  });

  app.get('/me/tokens', self, async (request) => ({ data: (await ctx.store.adminTokens.list(personOf(request).id)).map((token) => tokenView(token)) }));
  app.post('/me/tokens', self, async (request, reply) => {
    const { record, secret } = await createAdminToken(ctx.store, personOf(request), request.body ?? {}, actorOf(request));
    reply.code(201);
    return { ...tokenView(record), token: secret };
  });
  app.delete<{ Params: { id: string } }>('/me/tokens/:id', self, async (request) => tokenView(await revokeAdminToken(ctx.store, request.params.id, personOf(request).id, actorOf(request))));

  app.get<{ Params: { id: string } }>('/users/:id/tokens', access, async (request) => {
    const user = await userOr404(request.params.id);
    return { data: (await ctx.store.adminTokens.list(user.id)).map((token) => tokenView(token)) };
  });
  app.delete<{ Params: { id: string; tokenId: string } }>('/users/:id/tokens/:tokenId', access, async (request) => {
    const user = await userOr404(request.params.id);
    return tokenView(await revokeAdminToken(ctx.store, request.params.tokenId, user.id, actorOf(request)));
  });
}
