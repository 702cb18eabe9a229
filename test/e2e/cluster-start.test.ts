/**
 * Instances started together on an empty database (what compose and
 * Kubernetes do) all come up: migrations and the first-start credentials are
 * made once, the instances that lose the race read the winner's rows, and
 * only keys that work are printed. On a fresh PostgreSQL schema, and on one
 * SQLite data directory.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

describe.each(ENGINES)('three instances starting together on an empty %s database', (engine) => {
  let place: Place;
  const gateways: TestGateway[] = [];
  afterAll(async () => {
    await Promise.all(gateways.map((gw) => gw.close()));
    await place?.destroy();
  });

  it('all come up; exactly one printed the admin and client keys, and they work on every instance', async () => {
    place = await createPlace(engine);
    // No admin key in the environment: the first start makes one, as in production.
    const started = await Promise.allSettled([1, 2, 3].map(() => place.start({ settings: { adminKey: undefined } })));
    for (const outcome of started) if (outcome.status === 'fulfilled') gateways.push(outcome.value);
    expect(started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'up'))).toEqual(['up', 'up', 'up']);

    const printed = gateways.map((gw) => gw.gateway.generated);
    const adminKeys = printed.flatMap((generated) => (generated.adminKey ? [generated.adminKey] : []));
    const clientKeys = printed.flatMap((generated) => (generated.clientKey ? [generated.clientKey] : []));
    expect(adminKeys).toHaveLength(1);
    expect(clientKeys).toHaveLength(1);

    for (const gw of gateways) {
      const keys = await fetch(`${gw.url}/admin/keys`, { headers: { authorization: `Bearer ${adminKeys[0]}` } });
      expect(keys.status).toBe(200);
      const listed = ((await keys.json()) as { data: Array<{ name: string }> }).data;
      expect(listed.map((key) => key.name)).toEqual(['default']);
      const chat = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': clientKeys[0], 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'any-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(chat.status).toBe(200);
    }
  });
});
