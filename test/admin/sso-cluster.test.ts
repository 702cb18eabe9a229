/**
 * A sign-in started on one gateway instance finishes on another sharing the
 * store (SQLite file or PostgreSQL schema), as behind a load balancer: the
 * pending sign-in and the session live in the store. The provider here puts
 * the person's email and groups in userinfo only, not in the ID token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser-session.js';
import type { TestGateway } from '../support/gateway.js';
import { freePort, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const CALLBACK = '/admin/auth/oidc/callback';

describe.each(ENGINES)('single sign-on across two instances on %s', (engine) => {
  let place: Place;
  let provider: TestOidcProvider;
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    place = await createPlace(engine);
    const port = await freePort();
    // Both instances stand behind one public address: the first's.
    const redirect = `http://127.0.0.1:${port}${CALLBACK}`;
    provider = await startOidcProvider({ redirectUris: [redirect], userinfoOnly: true, accounts: { erin: { email: 'erin@example.test', groups: ['sw-viewers'] } } });
    const options = { config: { sso: { roles: { 'sw-viewers': 'viewer' } } }, env: provider.env(redirect) };
    first = await place.start({ ...options, settings: { port } });
    second = await place.start(options);
  }, 30_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await provider?.close();
    await place?.destroy();
  });

  it('finishes on the second instance a sign-in the first started, and the session serves on both', async () => {
    const browser = new Browser();
    const start = await browser.fetch(`${first.url}/admin/auth/oidc/login?return=/console/%23/logs`);
    expect(start.status).toBe(302);
    const { stoppedAt } = await browser.signInAtProvider(start.headers.get('location') as string, 'erin', `${first.url}${CALLBACK}`);
    const callback = new URL(stoppedAt as string);
    const onSecond = await browser.fetch(`${second.url}${CALLBACK}${callback.search}`);
    expect(onSecond.status, await onSecond.clone().text()).toBe(302);
    expect(onSecond.headers.get('location')).toBe('/console/#/logs');
    for (const gateway of [first, second]) {
      const session = await browser.fetch(`${gateway.url}/admin/auth/session`);
      expect(session.status).toBe(200);
      expect(((await session.json()) as { user: unknown }).user).toMatchObject({ email: 'erin@example.test', role: 'viewer' });
    }
    // The same answer again, on either instance: a sign-in finishes once.
    const replay = await browser.fetch(`${first.url}${CALLBACK}${callback.search}`);
    expect(replay.status).toBe(400);
  });
});
