/**
 * Task callbacks over HTTP, on SQLite and PostgreSQL: a receiver on loopback
 * (allowed through SWITCHYARD_OUTBOUND_ALLOW) gets the task record on each
 * status change and on completion; the final one is retried until it lands;
 * every delivery is recorded; the global hook (environment or config file)
 * serves tasks without their own; private hooks are refused unless allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { igClient, type IgClient } from '../families/images/support.js';

const KEY = 'sk-images-callbacks-01';
const config = {
  // Long enough that a loaded machine still polls the task while it is IN_PROGRESS (missed at 0.3 s, and once at 1.2 s beside two other suites).
  channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 2, imageSize: 64 } }],
  keys: [{ name: 'callbacks', key: KEY }],
};

async function until<T>(probe: () => T | undefined | false, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ENGINES)('image task callbacks on %s', (engine) => {
  let receiver: CallbackReceiver;
  let place: Place;
  let gw: TestGateway;
  let ig: IgClient;

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    place = await createPlace(engine);
    gw = await place.start({ config, env: { SWITCHYARD_NOTIFY_HOOK: `${receiver.url}/global` } });
    ig = igClient(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await receiver?.close();
  });

  const at = (path: string) => receiver.received.filter((entry) => entry.path === path);

  it('posts the task record on each status change, the last one equal to what fetch shows', async () => {
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'call me back', state: 'cb', notifyHook: `${receiver.url}/own` });
    const done = await ig.waitFor(body.result);
    const calls = await until(() => {
      const list = at('/own').filter((entry) => entry.body.id === body.result);
      return list.some((entry) => entry.body.status === 'SUCCESS') && list;
    });
    expect(calls.map((entry) => entry.body.status)).toEqual(['SUBMITTED', 'IN_PROGRESS', 'SUCCESS']);
    expect(calls[0].body).toMatchObject({ id: body.result, action: 'IMAGINE', state: 'cb', progress: '0%' });
    expect(calls.at(-1)!.body).toEqual(done);
    // A task with its own hook does not also go to the global one.
    expect(at('/global').some((entry) => entry.body.id === body.result)).toBe(false);
    // The receiver sees a callback before the gateway has recorded the answer to it.
    let deliveries = await gw.gateway.ctx.tasks.deliveries.listForTask(body.result);
    for (let i = 0; i < 400 && deliveries.some((entry) => entry.status === 'pending'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      deliveries = await gw.gateway.ctx.tasks.deliveries.listForTask(body.result);
    }
    expect(deliveries.map((entry) => [entry.event, entry.status, entry.attempts, entry.lastStatus])).toEqual([
      ['SUBMITTED', 'delivered', 1, 200],
      ['IN_PROGRESS', 'delivered', 1, 200],
      ['SUCCESS', 'delivered', 1, 200],
    ]);
  });

  it('sends tasks without a hook to the global hook', async () => {
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'global' });
    await until(() => at('/global').find((entry) => entry.body.id === body.result && entry.body.status === 'SUCCESS'));
  });

  it('retries the final callback until the receiver takes it, recording each attempt', async () => {
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'flaky receiver', notifyHook: `${receiver.url}/flaky` });
    await until(() => at('/flaky').find((entry) => entry.body.id === body.result && entry.body.status === 'IN_PROGRESS'));
    receiver.answer(503);
    await until(() => at('/flaky').filter((entry) => entry.body.status === 'SUCCESS').length >= 2 || undefined);
    receiver.answer(200);
    const deliveries = await (async () => {
      const deadline = Date.now() + 8_000;
      for (;;) {
        const list = await gw.gateway.ctx.tasks.deliveries.listForTask(body.result);
        const last = list.find((entry) => entry.final);
        if (last?.status === 'delivered') return list;
        if (Date.now() > deadline) throw new Error(`final callback not delivered: ${JSON.stringify(list)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const last = deliveries.find((entry) => entry.final)!;
    expect(last.attempts).toBeGreaterThanOrEqual(3);
    expect(last.lastStatus).toBe(200);
    expect(last.deliveredAt).toBeGreaterThan(0);
    expect(at('/flaky').filter((entry) => entry.body.status === 'SUCCESS').length).toBe(last.attempts);
  });

  it('refuses a private hook when the address is not allowed', async () => {
    const closedPlace = await createPlace(engine);
    const closed = await closedPlace.start({ config, env: { SWITCHYARD_OUTBOUND_ALLOW: '' } });
    try {
      const { status, body } = await igClient(closed.url, KEY).post('/ig/submit/imagine', { prompt: 'x', notifyHook: `${receiver.url}/nope` });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 21 });
      expect(body.description).toMatch(/private or reserved/);
    } finally {
      await closed.close();
      await closedPlace.destroy();
    }
  });

  it('takes the global hook from the config file', async () => {
    const filePlace = await createPlace(engine);
    const fromFile = await filePlace.start({ config: { ...config, notifyHook: `${receiver.url}/from-file` } });
    try {
      const { body } = await igClient(fromFile.url, KEY).post('/ig/submit/shorten', { prompt: 'a long prompt to shorten' });
      await until(() => at('/from-file').find((entry) => entry.body.id === body.result && entry.body.status === 'SUCCESS'));
    } finally {
      await fromFile.close();
      await filePlace.destroy();
    }
  });
});
