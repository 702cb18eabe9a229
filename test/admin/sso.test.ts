/**
 * Single sign-on for the console against a real OpenID Connect provider
 * (oidc-provider on loopback, test/support/oidc-provider.ts), driven with
 * fetch as a browser would (test/support/browser-session.ts): a person created
 * just in time with the role and memberships their groups map to, a stored
 * user linked by email (a hand-set role kept), a disabled user refused, the
 * session cookie on the admin API with its CSRF header, logout and expiry,
 * the callback's refusals, and no secret in the logs or answers.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser-session.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { freePort, startOidcProvider, TEST_CLIENT_SECRET, type TestOidcProvider } from '../support/oidc-provider.js';

const CALLBACK = '/admin/auth/oidc/callback';
const CSRF = { 'x-switchyard-csrf': '1' };

const mapping = {
  roles: { 'sw-owners': 'owner', 'sw-admins': 'admin', staff: 'viewer' },
  teams: [
    { group: 'ml', team: 'research', role: 'member' },
    { group: 'ml-leads', team: 'research', role: 'admin' },
    { group: 'support', team: 'support' },
  ],
};

const accounts = {
  alice: { email: 'alice@example.test', name: 'Alice', groups: ['sw-admins', 'staff', 'ml', 'ml-leads', 'unmapped'] },
  bob: { email: 'Bob@Example.test', name: 'Bob', groups: ['staff'] },
  carol: { email: 'carol@example.test', groups: ['sw-owners'] },
  dave: { email: 'dave@example.test', groups: ['support'] },
};

describe('console single sign-on (OpenID Connect)', () => {
  let provider: TestOidcProvider;
  let gw: TestGateway;
  const logLines: string[] = [];
  const answers: string[] = [];

  const signIn = async (browser: Browser, login: string, choice: 'accept' | 'cancel' = 'accept') => {
    const start = await browser.fetch(`${gw.url}/admin/auth/oidc/login`);
    expect(start.status).toBe(302);
    const { stoppedAt } = await browser.signInAtProvider(start.headers.get('location') as string, login, `${gw.url}${CALLBACK}`, choice);
    expect(stoppedAt).toBeDefined();
    const done = await browser.fetch(stoppedAt as string);
    const text = await done.text();
    answers.push(text);
    return { status: done.status, location: done.headers.get('location'), body: text ? JSON.parse(text) : undefined };
  };

  const api = async (browser: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = CSRF) => {
    const response = await browser.fetch(`${gw.url}/admin${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    answers.push(text);
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}${CALLBACK}`;
    provider = await startOidcProvider({ redirectUris: [redirect], accounts });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    gw = await startGateway({ config: { sso: mapping }, env: provider.env(redirect), settings: { port, trustedProxies: ['127.0.0.1'] }, logger: pino({ level: 'debug' }, sink) });
    expect((await gw.admin('POST', '/teams', { name: 'research' })).status).toBe(201);
    expect((await gw.admin('POST', '/teams', { name: 'support' })).status).toBe(201);
  }, 30_000);

  afterAll(async () => {
    await gw?.close();
    await provider?.close();
  });

  it('tells the console before login that sign-on is on, and its label', async () => {
    const probe = await api(new Browser(), 'GET', '/auth/session');
    expect(probe.status).toBe(401);
    expect(probe.body.sso).toEqual({ enabled: true, label: 'Test IdP' });
  });

  it('creates a person just in time with the role and memberships their groups map to', async () => {
    const browser = new Browser();
    const done = await signIn(browser, 'alice');
    expect(done.status).toBe(302);
    expect(done.location).toBe('/console/');
    const session = await api(browser, 'GET', '/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: 'alice@example.test', name: 'Alice', role: 'admin' });
    const users = await gw.admin('GET', '/users');
    const alice = users.body.data.find((user: { email: string }) => user.email === 'alice@example.test');
    expect(alice).toMatchObject({ externalId: 'alice', role: 'admin' });
    const teams = (await gw.admin('GET', '/teams')).body.data as { id: string; name: string }[];
    const research = teams.find((team) => team.name === 'research') as { id: string };
    const members = await gw.admin('GET', `/teams/${research.id}/members`);
    expect(members.body.data).toEqual([expect.objectContaining({ userId: alice.id, role: 'admin' })]);
    const audit = (await gw.admin('GET', '/audit?limit=50')).body.data as { action: string; actorKind: string; actorId: string | null }[];
    expect(audit.find((entry) => entry.action === 'user.create')).toMatchObject({ actorKind: 'sso' });
    expect(audit.find((entry) => entry.action === 'session.login')).toMatchObject({ actorKind: 'user', actorId: alice.id });
  });

  it('lets the session cookie use the admin API, with the CSRF header on unsafe methods, until logout', async () => {
    const browser = new Browser();
    expect((await signIn(browser, 'alice')).status).toBe(302);
    expect((await api(browser, 'GET', '/keys', undefined, {})).status).toBe(200);
    const forged = await api(browser, 'POST', '/teams', { name: 'forged' }, {});
    expect(forged.status).toBe(403);
    expect(forged.body.error.message).toContain('x-switchyard-csrf');
    const made = await api(browser, 'POST', '/teams', { name: 'made-by-alice' });
    expect(made.status).toBe(201);
    const entry = (await gw.admin('GET', `/audit?targetId=${made.body.id}`)).body.data[0];
    expect(entry).toMatchObject({ actorKind: 'user', actorName: 'alice@example.test' });
    expect((await api(browser, 'POST', '/auth/logout', undefined, {})).status).toBe(403);
    expect((await api(browser, 'POST', '/auth/logout')).status).toBe(204);
    expect((await api(browser, 'GET', '/keys')).status).toBe(401);
    expect((await api(browser, 'GET', '/auth/session')).status).toBe(401);
  });

  it('refuses an expired session', async () => {
    const browser = new Browser();
    expect((await signIn(browser, 'alice')).status).toBe(302);
    expect((await api(browser, 'GET', '/keys')).status).toBe(200);
    await gw.gateway.ctx.store.db
      .updateTable('admin_sessions')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await api(browser, 'GET', '/keys')).status).toBe(401);
    expect((await api(browser, 'GET', '/auth/session')).status).toBe(401);
  });

  it('links a stored user by email and keeps the role set by hand', async () => {
    const stored = await gw.admin('POST', '/users', { email: 'bob@example.test', name: 'Bob', role: 'admin' });
    expect(stored.status).toBe(201);
    const browser = new Browser();
    expect((await signIn(browser, 'bob')).status).toBe(302);
    const bob = (await gw.admin('GET', `/users/${stored.body.id}`)).body;
    expect(bob).toMatchObject({ externalId: 'bob', role: 'admin' });
    expect((await api(browser, 'GET', '/auth/session')).body.user.id).toBe(stored.body.id);
  });

  it('refuses a disabled user', async () => {
    const stored = await gw.admin('POST', '/users', { email: 'carol@example.test', status: 'disabled' });
    expect(stored.status).toBe(201);
    const browser = new Browser();
    const done = await signIn(browser, 'carol');
    expect(done.status).toBe(403);
    expect(done.body.error.message).toContain('disabled');
    expect(browser.jar.get('127.0.0.1', 'switchyard_session')).toBeUndefined();
    expect((await gw.admin('GET', `/users/${stored.body.id}`)).body).toMatchObject({ externalId: null, role: null });
  });

  it('answers a bad state, a callback from another browser and a refused consent with a 4xx', async () => {
    const browser = new Browser();
    const start = await browser.fetch(`${gw.url}/admin/auth/oidc/login`);
    const { stoppedAt } = await browser.signInAtProvider(start.headers.get('location') as string, 'dave', `${gw.url}${CALLBACK}`);
    const callback = new URL(stoppedAt as string);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'not-the-state-that-was-sent');
    const bad = await browser.fetch(tampered.href);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('not started in this browser');
    // The real answer, from a browser without the state cookie.
    const elsewhere = await new Browser().fetch(callback.href);
    expect(elsewhere.status).toBe(400);
    const cancelled = await signIn(new Browser(), 'dave', 'cancel');
    expect(cancelled.status).toBe(401);
    expect(cancelled.body.error.message).toContain('access_denied');
    const noState = await new Browser().fetch(`${gw.url}${CALLBACK}?code=abc`);
    expect(noState.status).toBe(400);
  });

  it('marks the cookies Secure when the request came over https (from a trusted proxy), HttpOnly and SameSite=Lax always', async () => {
    const cookieOf = async (headers: Record<string, string>) => {
      const response = await fetch(`${gw.url}/admin/auth/oidc/login`, { redirect: 'manual', headers });
      expect(response.status).toBe(302);
      return response.headers.getSetCookie().find((line) => line.startsWith('switchyard_sso_state=')) as string;
    };
    const plain = await cookieOf({});
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).toMatch(/SameSite=Lax/);
    expect(plain).toMatch(/Path=\/admin\/auth/);
    expect(plain).not.toMatch(/Secure/);
    expect(await cookieOf({ 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
  });

  it('never shows the client secret or a session secret in a log line or an answer', async () => {
    const browser = new Browser();
    expect((await signIn(browser, 'dave')).status).toBe(302);
    const secret = browser.jar.get('127.0.0.1', 'switchyard_session') as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await api(browser, 'GET', '/me')).status).toBe(200);
    const everything = [...logLines, ...answers].join('\n');
    expect(everything).not.toContain(TEST_CLIENT_SECRET);
    expect(everything).not.toContain(secret);
    expect(logLines.join('\n')).toContain('console sign-in');
  });
});
