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
 * A team admin reads their teams and their teams' members, and changes
 * memberships there (reach.ts); role changes follow role-rules.ts.
 * Reads flush the spend this instance still holds, as key reads do. A change
 * that detaches disabled keys from their team or user tells every instance
 * the keys changed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import type { Permission } from './access.js';
import { actorOf } from './audit-actor.js';
import { principalOf, reachFor, requireReach } from './reach.js';
import { checkRoleRules } from './role-rules.js';
import { TeamService } from './team-service.js';

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext, keysChanged: () => void): void {
  const teams = new TeamService(ctx.store);
  const needs = (permission: Permission) => ({ config: { permission } });

  /** The team, when the caller's `permission` reaches it; else not found. */
  const teamInReach = async (request: FastifyRequest<{ Params: { id: string } }>, permission: Permission) => {
    requireReach(reachFor(request, permission), request.params.id, `no team with id "${request.params.id}"`);
    return teams.getTeam(request.params.id);
  };
  /** The user, when full reach or one of their teams is administered by the caller; else not found. */
  const userInReach = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const reach = reachFor(request, 'users.read');
    const user = await teams.getUser(request.params.id);
    if (!reach.all && !(await ctx.store.teams.membershipsOf(user.id)).some((member) => reach.teams.includes(member.teamId))) {
      throw new GatewayError('not_found', `no user with id "${request.params.id}"`);
    }
    return user;
  };

  app.get('/teams', needs('teams.read'), async (request) => {
    const reach = reachFor(request, 'teams.read');
    await ctx.recorder.flush();
    const visible = (await ctx.store.teams.list()).filter((team) => reach.all || reach.teams.includes(team.id));
    return { data: await Promise.all(visible.map((team) => teams.teamView(team))) };
  });
  app.post('/teams', needs('teams.write'), async (request, reply) => {
    const record = await teams.createTeam(request.body ?? {}, actorOf(request));
    reply.code(201);
    return teams.teamView(record);
  });
  app.get<{ Params: { id: string } }>('/teams/:id', needs('teams.read'), async (request) => {
    const team = await teamInReach(request, 'teams.read');
    await ctx.recorder.flush();
    return teams.teamView(team);
  });
  app.patch<{ Params: { id: string } }>('/teams/:id', needs('teams.write'), async (request) => teams.teamView(await teams.updateTeam(request.params.id, request.body ?? {}, actorOf(request))));
  app.delete<{ Params: { id: string } }>('/teams/:id', needs('teams.write'), async (request) => {
    await teams.deleteTeam(request.params.id, actorOf(request));
    keysChanged();
    return { id: request.params.id, deleted: true };
  });

  app.get<{ Params: { id: string } }>('/teams/:id/members', needs('teams.read'), async (request) => {
    await teamInReach(request, 'teams.read');
    return { data: await teams.memberViews(request.params.id) };
  });
  app.put<{ Params: { id: string } }>('/teams/:id/members', needs('members.write'), async (request) => {
    await teamInReach(request, 'members.write');
    const member = await teams.putMember(request.params.id, request.body ?? {}, actorOf(request));
    const user = await teams.getUser(member.userId);
    return { ...member, email: user.email, name: user.name };
  });
  app.delete<{ Params: { id: string; userId: string } }>('/teams/:id/members/:userId', needs('members.write'), async (request) => {
    await teamInReach(request, 'members.write');
    await teams.removeMember(request.params.id, request.params.userId, actorOf(request));
    keysChanged();
    return { id: request.params.userId, deleted: true };
  });

  app.get('/users', needs('users.read'), async (request) => {
    const reach = reachFor(request, 'users.read');
    await ctx.recorder.flush();
    let users = await ctx.store.users.list();
    if (!reach.all) {
      const members = new Set((await Promise.all(reach.teams.map((teamId) => ctx.store.teams.members(teamId)))).flat().map((member) => member.userId));
      users = users.filter((user) => members.has(user.id));
    }
    return { data: await Promise.all(users.map((user) => teams.userView(user))) };
  });
  app.post('/users', needs('users.write'), async (request, reply) => {
    checkRoleRules(principalOf(request), null, request.body);
    const record = await teams.createUser(request.body ?? {}, actorOf(request));
    reply.code(201);
    return teams.userView(record);
  });
  app.get<{ Params: { id: string } }>('/users/:id', needs('users.read'), async (request) => {
    const user = await userInReach(request);
    await ctx.recorder.flush();
    return teams.userView(user);
  });
  app.patch<{ Params: { id: string } }>('/users/:id', needs('users.write'), async (request) => {
    checkRoleRules(principalOf(request), await teams.getUser(request.params.id), request.body);
    const record = await teams.updateUser(request.params.id, request.body ?? {}, actorOf(request));
    // A disabled (or enabled again) user's keys stop (or start) serving on every instance.
    keysChanged();
    return teams.userView(record);
  });
  app.delete<{ Params: { id: string } }>('/users/:id', needs('users.write'), async (request) => {
    checkRoleRules(principalOf(request), await teams.getUser(request.params.id), undefined);
    await teams.deleteUser(request.params.id, actorOf(request));
    keysChanged();
    return { id: request.params.id, deleted: true };
  });
}
