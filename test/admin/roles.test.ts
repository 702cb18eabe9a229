/**
 * Every admin route, as registered (not a hand list: a new route is walked
 * too), called as each kind of caller: the admin key, an owner, an admin, a
 * viewer, a team admin and a person with no role. A caller the route's
 * permission allows is let through (whatever the handler then says); any
 * other gets a 403 in the admin error shape naming the permission. No
 * credential, or a wrong one, is a 401 everywhere but on public routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredAdminRoutes } from '../../src/admin/guard.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { caller, createPeople, EVERYONE, type Call, type People, type Who } from './people.js';

let gw: TestGateway;
let people: People;
let call: Call;
let serial = 0;

/** Path parameters: ids nothing has, so writes through them change nothing (a 404 is "let through"). */
const PARAMS: Record<string, () => string> = { id: () => 'nothing_here', userId: () => 'user_nothing', tokenId: () => 'pat_nothing', model: () => 'role-model', index: () => '0' };

/** Bodies that get past the handlers' own team checks for whoever is allowed; the rest may answer 400. */
const BODIES: Record<string, () => unknown> = {
  'POST /admin/keys': () => ({ name: `role key ${++serial}`, teamId: people.teams.a }),
  'POST /admin/users': () => ({ email: `person${++serial}@example.com` }),
  'POST /admin/teams': () => ({ name: `role team ${++serial}` }),
  'POST /admin/budgets': () => ({ scopeKind: 'team', scopeId: people.teams.a, amountUsd: 5, period: 'daily', timeZone: 'UTC' }),
  'PUT /admin/prices/:model': () => ({ input: 1, output: 2 }),
  'POST /admin/me/tokens': () => ({ name: 'matrix' }),
};

const pathOf = (url: string) => url.replace(/^\/admin/, '').replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(PARAMS[name]?.() ?? 'x'));

beforeAll(async () => {
  gw = await startGateway({ env: { SWITCHYARD_TASK_TICK_MS: '50' } });
  people = await createPeople(gw);
  call = caller(gw, () => people);
});
afterAll(() => gw?.close());

const routes = () => declaredAdminRoutes(gw.gateway.ctx).filter((route) => route.method !== 'HEAD');

describe('the admin API’s role checks', () => {
  it('walks every admin route, each declaring a permission; writes never need only a read', () => {
    expect(routes().length).toBeGreaterThan(50);
    for (const route of routes()) {
      expect(route.public || route.permission !== null, `${route.method} ${route.url}`).toBe(true);
      if (route.method !== 'GET') expect(route.permission ?? '', `${route.method} ${route.url}`).not.toMatch(/\.read$/);
    }
  });

  it('tells each caller what they may do (GET /admin/me)', async () => {
    const me = async (who: Who) => (await call(who, 'GET', '/me')).body;
    expect(await me('adminKey')).toMatchObject({ kind: 'admin-key', user: null, role: 'owner', adminOf: [] });
    expect((await me('owner')).permissions).toContain('access.write');
    expect(await me('viewer')).toMatchObject({ kind: 'token', role: 'viewer', permissions: ['logs.read', 'usage.read', 'tasks.read', 'prices.read', 'self'].sort((a, b) => order(a) - order(b)) });
    const lead = await me('teamAdmin');
    expect(lead).toMatchObject({ kind: 'token', role: null, adminOf: [{ id: people.teams.a, name: 'team a' }], user: { email: 'lead@example.com' } });
    expect(lead.permissions).toEqual(expect.arrayContaining(['keys.write', 'members.write', 'budgets.write', 'logs.read']));
    expect(lead.permissions).not.toContain('channels.read');
    expect(lead.permissions).not.toContain('audit.read');
    expect((await me('nobody')).permissions).toEqual(['self']);
  });

  it('lets through whom the route’s permission allows, and refuses the others with a 403 naming it', async () => {
    const held = new Map<Who, string[]>();
    for (const who of EVERYONE) held.set(who, (await call(who, 'GET', '/me')).body.permissions);
    const problems: string[] = [];
    for (const route of routes()) {
      if (route.public) continue;
      for (const who of EVERYONE) {
        const answer = await call(who, route.method, pathOf(route.url), BODIES[`${route.method} ${route.url}`]?.());
        const allowed = held.get(who)!.includes(route.permission!);
        const label = `${who} ${route.method} ${route.url} → ${answer.status} ${JSON.stringify(answer.body?.error ?? '')}`;
        if (allowed && (answer.status === 401 || answer.status === 403)) problems.push(`allowed but refused: ${label}`);
        if (!allowed) {
          if (answer.status !== 403 || answer.body?.error?.type !== 'permission') problems.push(`not allowed but ${label}`);
          else if (!String(answer.body.error.message).includes(`the ${route.permission} permission`)) problems.push(`unnamed permission: ${label}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('answers 401 without a credential or with a wrong one, on every route but public ones', async () => {
    for (const route of routes()) {
      if (route.public) continue;
      for (const credential of ['', 'sk-pat-not-a-token', 'sk-admin-wrong']) {
        const answer = await call(credential, route.method, pathOf(route.url));
        expect(answer.status, `${credential} ${route.method} ${route.url}`).toBe(401);
        expect(answer.body.error.type).toBe('authentication');
      }
    }
  });

  it('refuses with the caller’s role named', async () => {
    const refused = await call('viewer', 'POST', '/keys', { name: 'nope' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { type: 'permission', message: 'this needs the keys.write permission; your role is viewer' } });
    expect((await call('teamAdmin', 'GET', '/audit')).body.error.message).toBe('this needs the audit.read permission; your role is none (team admin of 1 team)');
  });
});

const ORDER = [
  'keys.read',
  'keys.write',
  'channels.read',
  'channels.write',
  'prices.read',
  'prices.write',
  'teams.read',
  'teams.write',
  'members.write',
  'users.read',
  'users.write',
  'budgets.read',
  'budgets.write',
  'logs.read',
  'usage.read',
  'tasks.read',
  'audit.read',
  'settings.read',
  'access.write',
  'self',
];
const order = (permission: string) => ORDER.indexOf(permission);
