/**
 * The admin API's teams, users and memberships:
 *
 *   GET/POST          /admin/teams                    list / create
 *   GET/PATCH/DELETE  /admin/teams/:id                read / update / delete (409 while it holds active keys)
 *   GET/PUT           /admin/teams/:id/members        list / add a member or change their role
 *   DELETE            /admin/teams/:id/members/:userId   remove (409 while they hold active keys of the team)
 *   GET/POST          /admin/users                    list / create
 *   GET/PATCH/DELETE  /admin/users/:id                read / update (status `disabled` disables) / delete (409 while they hold active keys)
 *
 * Reads flush the spend this instance still holds, as key reads do. A change
 * that detaches disabled keys from their team or user tells every instance
 * the keys changed.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { actorOf } from './audit-actor.js';
import { TeamService } from './team-service.js';

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext, keysChanged: () => void): void {
  const teams = new TeamService(ctx.store);

  app.get('/teams', async () => {
    await ctx.recorder.flush();
    return { data: await Promise.all((await ctx.store.teams.list()).map((team) => teams.teamView(team))) };
  });
  app.post('/teams', async (request, reply) => {
    const record = await teams.createTeam(request.body ?? {}, actorOf(request));
    reply.code(201);
    return teams.teamView(record);
  });
  app.get<{ Params: { id: string } }>('/teams/:id', async (request) => {
    await ctx.recorder.flush();
    return teams.teamView(await teams.getTeam(request.params.id));
  });
  app.patch<{ Params: { id: string } }>('/teams/:id', async (request) => teams.teamView(await teams.updateTeam(request.params.id, request.body ?? {}, actorOf(request))));
  app.delete<{ Params: { id: string } }>('/teams/:id', async (request) => {
    await teams.deleteTeam(request.params.id, actorOf(request));
    keysChanged();
    return { id: request.params.id, deleted: true };
  });

  app.get<{ Params: { id: string } }>('/teams/:id/members', async (request) => ({ data: await teams.memberViews(request.params.id) }));
  app.put<{ Params: { id: string } }>('/teams/:id/members', async (request) => {
    const member = await teams.putMember(request.params.id, request.body ?? {}, actorOf(request));
    const user = await teams.getUser(member.userId);
    return { ...member, email: user.email, name: user.name };
  });
  app.delete<{ Params: { id: string; userId: string } }>('/teams/:id/members/:userId', async (request) => {
    await teams.removeMember(request.params.id, request.params.userId, actorOf(request));
    keysChanged();
    return { id: request.params.userId, deleted: true };
  });

  app.get('/users', async () => {
    await ctx.recorder.flush();
    return { data: await Promise.all((await ctx.store.users.list()).map((user) => teams.userView(user))) };
  });
  app.post('/users', async (request, reply) => {
    const record = await teams.createUser(request.body ?? {}, actorOf(request));
    reply.code(201);
    return teams.userView(record);
  });
  app.get<{ Params: { id: string } }>('/users/:id', async (request) => {
    await ctx.recorder.flush();
    return teams.userView(await teams.getUser(request.params.id));
  });
  app.patch<{ Params: { id: string } }>('/users/:id', async (request) => {
    const record = await teams.updateUser(request.params.id, request.body ?? {}, actorOf(request));
    // A disabled (or enabled again) user's keys stop (or start) serving on every instance.
    keysChanged();
    return teams.userView(record);
  });
  app.delete<{ Params: { id: string } }>('/users/:id', async (request) => {
    await teams.deleteUser(request.params.id, actorOf(request));
    keysChanged();
    return { id: request.params.id, deleted: true };
  });
}
