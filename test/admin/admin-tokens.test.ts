/**
 * Personal admin tokens and the rules about owners: a token made through
 * /admin/me/tokens works at once with its person's role, is listed without
 * its secret or hash, and stops at revocation, expiry or when its person is
 * disabled (a 401 saying which); the audit log names the token, never its
 * secret. Only an owner (or the admin key) makes or touches owners. And a
 * route declaring no permission cannot be registered.
 */
import Fastify from 'fastify';
import { pino } from 'pino';
import { createAdminToken } from '../../src/admin/admin-tokens.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardAdminRoutes } from '../../src/admin/guard.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { CLI_ACTOR, caller, createPeople, type Call, type People } from './people.js';

let gw: TestGateway;
let people: People;
let call: Call;

beforeAll(async () => {
  gw = await startGateway();
  people = await createPeople(gw);
  call = caller(gw, () => people);
});
afterAll(() => gw?.close());

describe('personal admin tokens', () => {
  it('are made, used, listed without their secret, and revoked', async () => {
    const created = await call('admin', 'POST', '/me/tokens', { name: 'deploy script', expiresInDays: 30 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'deploy script', userId: people.users.admin, state: 'active', revokedAt: null });
    expect(created.body.token).toMatch(/^sk-pat-[A-Za-z0-9]{30,40}$/);
    expect(created.body.prefix).toBe(created.body.token.slice(0, 11));
    expect(created.body.expiresAt).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const secret: string = created.body.token;

    // Usable at once, as the admin it belongs to; x-admin-key works as well as Bearer.
    expect((await call(secret, 'GET', '/channels')).status).toBe(200);
    const viaHeader = await fetch(`${gw.url}/admin/me`, { headers: { 'x-admin-key': secret } });
    expect(await viaHeader.json()).toMatchObject({ kind: 'token', role: 'admin', user: { email: 'admin@example.com' } });

    const mine = await call('admin', 'GET', '/me/tokens');
    expect(mine.body.data.map((token: { id: string }) => token.id)).toEqual([created.body.id, people.tokenIds.admin]);
    const theirs = await call('owner', 'GET', `/users/${people.users.admin}/tokens`);
    expect(theirs.body.data).toHaveLength(2);
    for (const listing of [mine, theirs]) {
      expect(JSON.stringify(listing.body)).not.toContain(secret);
      expect(JSON.stringify(listing.body)).not.toMatch(/hash|"token"/i);
    }
    // Someone else's token is not one of mine.
    expect((await call('viewer', 'DELETE', `/me/tokens/${created.body.id}`)).status).toBe(404);

    const revoked = await call('admin', 'DELETE', `/me/tokens/${created.body.id}`);
    expect(revoked.body).toMatchObject({ id: created.body.id, state: 'revoked' });
    const refused = await call(secret, 'GET', '/me');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('this admin token was revoked');

    const audit = await gw.admin('GET', `/audit?targetKind=admin-token&targetId=${created.body.id}`);
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toEqual(['admin-token.revoke', 'admin-token.create']);
    expect(audit.body.data[1]).toMatchObject({ actorKind: 'token', actorId: people.tokenIds.admin, actorName: 'admin@example.com' });
    expect(JSON.stringify(audit.body)).not.toContain(secret);
    expect(JSON.stringify(audit.body)).not.toMatch(/hash/i);
  });

  it('names the token and its person as the actor of a change', async () => {
    const team = await call('owner', 'POST', '/teams', { name: 'made by a token' });
    const entry = (await gw.admin('GET', `/audit?targetId=${team.body.id}`)).body.data[0];
    expect(entry).toMatchObject({ action: 'team.create', actorKind: 'token', actorId: people.tokenIds.owner, actorName: 'owner@example.com' });
  });

  it('refuses an expired token and a disabled person’s token, saying which', async () => {
    const expired = await call('viewer', 'POST', '/me/tokens', { name: 'short', expiresInDays: 1 });
    await gw.gateway.ctx.store.db
      .updateTable('admin_tokens')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', expired.body.id)
      .execute();
    const late = await call(expired.body.token, 'GET', '/logs');
    expect(late.status).toBe(401);
    expect(late.body.error.message).toBe('this admin token has expired');
    expect((await call('viewer', 'GET', '/me/tokens')).body.data.find((token: { id: string }) => token.id === expired.body.id).state).toBe('expired');

    const person = await gw.admin('POST', '/users', { email: 'leaving@example.com', role: 'viewer' });
    const token = await createToken(person.body.id);
    expect((await call(token, 'GET', '/logs')).status).toBe(200);
    expect((await gw.admin('PATCH', `/users/${person.body.id}`, { status: 'disabled' })).status).toBe(200);
    const gone = await call(token, 'GET', '/logs');
    expect(gone.status).toBe(401);
    expect(gone.body.error.message).toBe('this admin token’s user is disabled');
  });

  it('go with their person when the person is deleted', async () => {
    const person = await gw.admin('POST', '/users', { email: 'gone@example.com', role: 'viewer' });
    const token = await createToken(person.body.id);
    expect((await gw.admin('DELETE', `/users/${person.body.id}`)).status).toBe(200);
    expect((await gw.gateway.ctx.store.adminTokens.list()).some((row) => row.userId === person.body.id)).toBe(false);
    expect((await call(token, 'GET', '/me')).body.error.message).toBe('unknown admin token');
  });

  it('acts with its person’s role as it is now', async () => {
    const person = await gw.admin('POST', '/users', { email: 'promoted@example.com', role: 'viewer' });
    const token = await createToken(person.body.id);
    expect((await call(token, 'GET', '/channels')).status).toBe(403);
    await gw.admin('PATCH', `/users/${person.body.id}`, { role: 'admin' });
    expect((await call(token, 'GET', '/channels')).status).toBe(200);
  });

  it('has none for the admin key, and lets access.write revoke anyone’s', async () => {
    const none = await call('adminKey', 'GET', '/me/tokens');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('the admin key is no person');
    expect((await call('admin', 'DELETE', `/users/${people.users.nobody}/tokens/${people.tokenIds.nobody}`)).body.state).toBe('revoked');
    expect((await call('nobody', 'GET', '/me')).status).toBe(401);
    expect((await call('owner', 'DELETE', `/users/${people.users.viewer}/tokens/${people.tokenIds.admin}`)).status).toBe(404);
  });
});

describe('log lines', () => {
  it('never carry a token’s secret, made, used or refused', async () => {
    const lines: string[] = [];
    const logged = await startGateway({ logger: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }) });
    try {
      const person = await logged.admin('POST', '/users', { email: 'logged@example.com', role: 'viewer' });
      const user = await logged.gateway.ctx.store.users.get(person.body.id);
      const { record, secret } = await createAdminToken(logged.gateway.ctx.store, user!, { name: 'logged' }, CLI_ACTOR);
      const use = (path: string) => fetch(`${logged.url}/admin${path}`, { headers: { authorization: `Bearer ${secret}` } });
      expect((await use('/logs')).status).toBe(200);
      expect((await use('/keys')).status).toBe(403);
      const made = await fetch(`${logged.url}/admin/me/tokens`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' });
      const second = ((await made.json()) as { token: string }).token;
      await logged.gateway.ctx.store.adminTokens.revoke(record.id);
      expect((await use('/logs')).status).toBe(401);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toContain(secret);
        expect(line).not.toContain(second);
      }
    } finally {
      await logged.close();
    }
  });
});

describe('the owner rule', () => {
  it('lets only an owner or the admin key make, change, disable or delete an owner', async () => {
    const made = await call('admin', 'POST', '/users', { email: 'boss@example.com', role: 'owner' });
    expect(made.status).toBe(403);
    expect(made.body.error).toMatchObject({ type: 'permission', param: 'role', message: 'role: only an owner may give the owner role' });
    const raise = await call('admin', 'PATCH', `/users/${people.users.admin}`, { role: 'owner' });
    expect(raise.status).toBe(403);
    for (const [method, body] of [
      ['PATCH', { name: 'renamed' }],
      ['PATCH', { status: 'disabled' }],
      ['DELETE', undefined],
    ] as const) {
      const touched = await call('admin', method, `/users/${people.users.owner}`, body);
      expect(touched.status, `${method} ${JSON.stringify(body)}`).toBe(403);
      expect(touched.body.error.message).toBe('only an owner may change, disable or delete a user whose role is owner');
    }
    // An admin may give the other roles.
    expect((await call('admin', 'PATCH', `/users/${people.users.viewer}`, { role: 'admin' })).status).toBe(200);
    expect((await call('admin', 'PATCH', `/users/${people.users.viewer}`, { role: null })).status).toBe(200);
    expect((await call('admin', 'PATCH', `/users/${people.users.viewer}`, { role: 'viewer' })).status).toBe(200);
    // An owner and the admin key may make owners.
    expect((await call('owner', 'POST', '/users', { email: 'second-owner@example.com', role: 'owner' })).status).toBe(201);
    expect((await call('adminKey', 'PATCH', `/users/${people.users.admin}`, { role: 'owner' })).status).toBe(200);
    expect((await call('owner', 'PATCH', `/users/${people.users.admin}`, { role: 'admin' })).status).toBe(200);
  });
});

describe('the admin gate', () => {
  it('refuses to register an admin route that declares no permission', async () => {
    const app = Fastify();
    guardAdminRoutes(app, [], {});
    expect(() => app.get('/unchecked', async () => 'open')).toThrow(/declares no permission/);
    expect(() => app.get('/typo', { config: { permission: 'keys.reed' as never } }, async () => 'open')).toThrow(/unknown permission/);
    app.get('/sign-in', { config: { public: true } }, async () => 'welcome');
    app.get('/checked', { config: { permission: 'keys.read' } }, async () => 'checked');
    expect((await app.inject({ url: '/sign-in' })).body).toBe('welcome');
    expect((await app.inject({ url: '/checked' })).statusCode).toBe(401);
    await app.close();
  });
});

async function createToken(userId: string): Promise<string> {
  const user = await gw.gateway.ctx.store.users.get(userId);
  return (await createAdminToken(gw.gateway.ctx.store, user!, {}, CLI_ACTOR)).secret;
}
