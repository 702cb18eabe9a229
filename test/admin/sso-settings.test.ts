/**
 * Single sign-on's settings and mapping rules: a wrong setting (variable or
 * config-file section) turns sign-on off, named, while the gateway serves; a
 * provider that is down gets a clear 503 without runtime text; the mapping's
 * rule (highest role; adds only, unless authoritative) and just-in-time off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantsOf } from '../../src/admin/sso/mapping.js';
import { ssoSetup } from '../../src/admin/sso/settings.js';
import { settingsFromEnv } from '../../src/config/env.js';
import { parseConfigText } from '../../src/config/file.js';
import { ssoSchema } from '../../src/config/sso-schema.js';
import { Browser } from '../support/browser-session.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { freePort, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';

const CALLBACK = '/admin/auth/oidc/callback';
const base = { SWITCHYARD_SSO_ISSUER: 'https://id.example.com', SWITCHYARD_SSO_CLIENT_ID: 'switchyard' };
const setupOf = (env: Record<string, string>, file = parseConfigText('{}', 'json')) => {
  const settings = settingsFromEnv(env);
  return ssoSetup(settings, file);
};

describe('single sign-on settings', () => {
  it('is off without an issuer and on with one, the redirect derived from the public URL', () => {
    expect(setupOf({})).toEqual({ state: 'off' });
    const on = setupOf({ ...base, SWITCHYARD_PUBLIC_URL: 'https://gw.example.com/' });
    expect(on.state).toBe('on');
    if (on.state !== 'on') return;
    expect(on.config.redirectUrl).toBe(`https://gw.example.com${CALLBACK}`);
    expect(on.config.scope).toBe('openid email profile');
    expect(on.config.sessionMs).toBe(12 * 3_600_000);
    expect(on.config.mapping).toEqual({ roles: {}, teams: [], justInTime: true, authoritative: false });
  });

  it.each([
    [{ ...base, SWITCHYARD_SSO_ISSUER: 'not a url' }, 'SWITCHYARD_SSO_ISSUER'],
    [{ ...base, SWITCHYARD_SSO_ISSUER: 'http://id.example.com' }, 'https'],
    [{ SWITCHYARD_SSO_CLIENT_ID: 'x' }, 'SWITCHYARD_SSO_ISSUER'],
    [{ ...base, SWITCHYARD_SSO_CLIENT_ID: '' }, 'SWITCHYARD_SSO_CLIENT_ID'],
    [base, 'SWITCHYARD_PUBLIC_URL'],
    [{ ...base, SWITCHYARD_SSO_REDIRECT_URL: 'https://gw.example.com/elsewhere' }, CALLBACK],
    [{ ...base, SWITCHYARD_PUBLIC_URL: 'https://gw.example.com', SWITCHYARD_SSO_SESSION_HOURS: 'ten' }, 'SWITCHYARD_SSO_SESSION_HOURS'],
  ])('names a wrong setting (%o) and turns sign-on off', (env, named) => {
    const setup = setupOf(env);
    expect(setup.state).toBe('broken');
    if (setup.state === 'broken') expect(setup.problem).toContain(named);
  });

  it("keeps the rest of a config file whose sso section is wrong, and names the section's problem", () => {
    const file = parseConfigText(JSON.stringify({ teams: [{ name: 'ml' }], sso: { roles: { staff: 'superuser' }, typo: true } }), 'json');
    expect(file.teams).toHaveLength(1);
    expect(file.sso).toBeUndefined();
    const setup = setupOf({ ...base, SWITCHYARD_PUBLIC_URL: 'https://gw.example.com' }, file);
    expect(setup.state === 'broken' && setup.problem).toMatch(/sso\.roles\.staff.*sso: unknown field|sso\.typo/);
    expect(() => parseConfigText(JSON.stringify({ sso: {}, teams: 'no' }), 'json')).toThrow(/teams/);
  });

  it('maps groups to the highest role and to team memberships, a team admin winning', () => {
    const mapping = ssoSchema().parse({
      roles: { a: 'viewer', b: 'owner', c: 'admin' },
      teams: [
        { group: 'a', team: 't1', role: 'admin' },
        { group: 'c', team: 't1' },
        { group: 'c', team: 't2' },
      ],
    });
    const grants = grantsOf(mapping, ['a', 'c', 'other']);
    expect(grants.role).toBe('admin');
    expect(Object.fromEntries(grants.teams)).toEqual({ t1: 'admin', t2: 'member' });
    expect(grantsOf(mapping, ['b', 'a']).role).toBe('owner');
    expect(grantsOf(mapping, []).role).toBeNull();
  });
});

describe('single sign-on when it cannot work', () => {
  let gw: TestGateway;
  let broken: TestGateway;

  beforeAll(async () => {
    const closed = await freePort();
    gw = await startGateway({ env: { SWITCHYARD_SSO_ISSUER: `http://127.0.0.1:${closed}`, SWITCHYARD_SSO_CLIENT_ID: 'x', SWITCHYARD_PUBLIC_URL: 'http://127.0.0.1:1' } });
    broken = await startGateway({ env: { SWITCHYARD_SSO_ISSUER: 'not a url', SWITCHYARD_SSO_CLIENT_ID: 'x' } });
  });

  afterAll(async () => {
    await gw?.close();
    await broken?.close();
  });

  it('answers a provider that is down with a 503 naming no runtime text, and the gateway serves', async () => {
    const login = await fetch(`${gw.url}/admin/auth/oidc/login`, { redirect: 'manual' });
    expect(login.status).toBe(503);
    const text = await login.text();
    expect(JSON.parse(text).error.message).toContain('could not be reached');
    expect(text).not.toMatch(/ECONNREFUSED|fetch failed|TypeError|at /);
    expect((await gw.admin('GET', '/keys')).status).toBe(200);
  });

  it('turns sign-on off with a wrong setting, says why at the login, and serves the rest', async () => {
    const probe = await fetch(`${broken.url}/admin/auth/session`);
    expect(probe.status).toBe(401);
    expect(((await probe.json()) as { sso: unknown }).sso).toMatchObject({ enabled: false });
    const login = await fetch(`${broken.url}/admin/auth/oidc/login`, { redirect: 'manual' });
    expect(login.status).toBe(503);
    expect(((await login.json()) as { error: { message: string } }).error.message).toContain('SWITCHYARD_SSO_ISSUER');
    expect((await broken.admin('GET', '/keys')).status).toBe(200);
  });
});

describe('single sign-on with an authoritative mapping and no just-in-time users', () => {
  let provider: TestOidcProvider;
  let gw: TestGateway;

  beforeAll(async () => {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}${CALLBACK}`;
    provider = await startOidcProvider({ redirectUris: [redirect], accounts: { frank: { email: 'frank@example.test', groups: ['staff', 'support'] } } });
    const sso = {
      justInTime: false,
      authoritative: true,
      roles: { staff: 'viewer' },
      teams: [
        { group: 'ml', team: 'research', role: 'admin' },
        { group: 'support', team: 'support' },
      ],
    };
    gw = await startGateway({ config: { sso }, env: provider.env(redirect), settings: { port } });
  }, 30_000);

  afterAll(async () => {
    await gw?.close();
    await provider?.close();
  });

  const signIn = async (login: string) => {
    const browser = new Browser();
    const start = await browser.fetch(`${gw.url}/admin/auth/oidc/login`);
    const { stoppedAt } = await browser.signInAtProvider(start.headers.get('location') as string, login, `${gw.url}${CALLBACK}`);
    const done = await browser.fetch(stoppedAt as string);
    return { status: done.status, text: await done.text() };
  };

  it('refuses a person no user stands for', async () => {
    const done = await signIn('stranger');
    expect(done.status).toBe(403);
    expect(done.text).toContain('justInTime');
    expect((await gw.admin('GET', '/users')).body.data).toEqual([]);
  });

  it('makes the role and the named teams follow the groups, lowering and removing', async () => {
    const research = (await gw.admin('POST', '/teams', { name: 'research' })).body.id;
    const support = (await gw.admin('POST', '/teams', { name: 'support' })).body.id;
    const other = (await gw.admin('POST', '/teams', { name: 'other' })).body.id;
    const user = (await gw.admin('POST', '/users', { email: 'frank@example.test', role: 'owner' })).body.id;
    expect((await gw.admin('PUT', `/teams/${research}/members`, { userId: user, role: 'admin' })).status).toBeLessThan(300);
    expect((await gw.admin('PUT', `/teams/${other}/members`, { userId: user, role: 'member' })).status).toBeLessThan(300);
    expect((await signIn('frank')).status).toBe(302);
    expect((await gw.admin('GET', `/users/${user}`)).body).toMatchObject({ role: 'viewer', externalId: 'frank' });
    const membersOf = async (team: string) => (await gw.admin('GET', `/teams/${team}/members`)).body.data.map((m: { userId: string; role: string }) => [m.userId, m.role]);
    expect(await membersOf(research)).toEqual([]);
    expect(await membersOf(support)).toEqual([[user, 'member']]);
    // A team the mapping does not name is left alone.
    expect(await membersOf(other)).toEqual([[user, 'member']]);
  });
});
