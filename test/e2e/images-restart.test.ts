/**
 * Tasks outlive their gateway, on SQLite and PostgreSQL: stop a gateway with
 * tasks in flight and start another on the same database, and every task
 * still finishes (with one final callback each); after a crash (leases held
 * by an instance that is gone), tasks are taken over once the leases lapse,
 * and a submission the crash interrupted fails visibly and is refunded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';
import { createPlace, ENGINES } from '../support/places.js';
import { igClient, pngDataUrl } from '../families/images/support.js';

const KEY = 'sk-images-restart-001';
const config = {
  channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 3, imageSize: 64 } }],
  keys: [{ name: 'restart', key: KEY, quota: 10 }],
  prices: { 'ig_*': { perCall: 0.1 } },
};
const FINAL = new Set(['SUCCESS', 'FAILURE']);

describe.each(ENGINES)('image tasks across restarts on %s', (engine) => {
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    receiver = await startCallbackReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  async function submitMany(gw: TestGateway, hook: string): Promise<string[]> {
    const ig = igClient(gw.url, KEY);
    const bodies = [
      ['/ig/submit/imagine', { prompt: 'restart one', notifyHook: hook }],
      ['/ig/submit/imagine', { prompt: 'restart two', notifyHook: hook }],
      ['/ig/submit/blend', { base64Array: [pngDataUrl(1, 1, 1), pngDataUrl(2, 2, 2)], notifyHook: hook }],
      ['/ig/submit/describe', { base64: pngDataUrl(3, 3, 3), notifyHook: hook }],
      ['/ig/face/swap', { sourceBase64: pngDataUrl(4, 4, 4), targetBase64: pngDataUrl(5, 5, 5), notifyHook: hook }],
    ] as const;
    const ids: string[] = [];
    for (const [path, body] of bodies) {
      const { status, body: envelope } = await ig.post(path, body);
      expect(status, JSON.stringify(envelope)).toBe(200);
      ids.push(envelope.result);
    }
    return ids;
  }

  const finalCallbacks = (path: string, id: string) => receiver.received.filter((entry) => entry.path === path && entry.body.id === id && FINAL.has(entry.body.status));

  it('finishes every task after the gateway was stopped mid-flight', async () => {
    const place = await createPlace(engine);
    try {
      const first = await place.start({ config });
      const ids = await submitMany(first, `${receiver.url}/graceful-${engine}`);
      const ig = igClient(first.url, KEY);
      await ig.waitFor(ids[0], (task) => task.status === 'IN_PROGRESS');
      const before = (await ig.post('/ig/task/list-by-condition', { ids })).body;
      expect(before.every((task: any) => !FINAL.has(task.status))).toBe(true);
      await first.close();

      const second = await place.start({ config });
      try {
        const ig2 = igClient(second.url, KEY);
        const done = await Promise.all(ids.map((id) => ig2.waitFor(id)));
        expect(done.map((task) => task.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
        // Image addresses follow the address the reading client uses.
        expect(done[0].imageUrl.startsWith(`${second.url}/ig/image/`)).toBe(true);
        const image = await fetch(done[0].imageUrl);
        expect(image.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const id of ids) expect(finalCallbacks(`/graceful-${engine}`, id)).toHaveLength(1);
        const key = (await second.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'restart');
        expect(key.used).toBeCloseTo(0.5);
      } finally {
        await second.close();
      }
    } finally {
      await place.destroy();
    }
  });

  it('takes over after a crash once the dead instance’s leases lapse, and fails an interrupted submission', async () => {
    const place = await createPlace(engine);
    try {
      const first = await place.start({ config });
      const ids = await submitMany(first, `${receiver.url}/crash-${engine}`);
      await first.close();
      // As if the instance had died holding its leases, one of them in the middle of a submission.
      const closedAt = Date.now();
      const store = await place.openStore();
      const key = await store.keys.getByName('restart');
      const leaseUntil = Date.now() + 2_500;
      await store.db.updateTable('tasks').set({ lease_owner: 'crashed-instance', lease_until: leaseUntil }).where('id', 'in', ids).execute();
      await store.close();

      const second = await place.start({ config, env: { SWITCHYARD_TASK_LEASE_MS: '600' } });
      try {
        const interrupted = await second.gateway.ctx.tasks.tasks.create({
          family: 'images',
          action: 'IMAGINE',
          keyId: key!.id,
          channelId: 'builtin-simulator',
          request: { endpoint: 'imagine', botType: 'MID_GEN', prompt: 'lost', promptEn: 'lost', state: '', imageDigests: [], inputMedia: [], publicBase: second.url },
          cost: 0.1,
          timeoutMs: 60_000,
          leaseOwner: 'crashed-instance',
          leaseMs: 600,
        });
        const ig = igClient(second.url, KEY);
        // Nothing moves while the dead instance's leases hold, although the tasks are due.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const held = (await ig.post('/ig/task/list-by-condition', { ids })).body;
        if (Date.now() < leaseUntil - 200) expect(held.every((task: any) => !FINAL.has(task.status))).toBe(true);
        const done = await Promise.all(ids.map((id) => ig.waitFor(id)));
        expect(done.every((task) => task.status === 'SUCCESS')).toBe(true);
        // Every change after the stop, the final one included, came once the leases had lapsed.
        for (const id of ids) {
          expect((await second.gateway.ctx.tasks.tasks.get(id))!.updatedAt).toBeGreaterThanOrEqual(leaseUntil);
          const later = (await second.gateway.ctx.tasks.deliveries.listForTask(id)).filter((entry) => entry.createdAt > closedAt);
          expect(later.length).toBeGreaterThan(0);
          for (const entry of later) expect(entry.createdAt).toBeGreaterThanOrEqual(leaseUntil);
        }
        const lost = await ig.waitFor(interrupted.id);
        expect(lost).toMatchObject({ status: 'FAILURE' });
        expect(lost.failReason).toMatch(/stopped before the upstream accepted/);
        const used = (await second.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'restart').used;
        expect(used).toBeCloseTo(0.5);
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const id of ids) expect(finalCallbacks(`/crash-${engine}`, id)).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await place.destroy();
    }
  });

  it('keeps a task waiting for its modal across a restart', async () => {
    const place = await createPlace(engine);
    try {
      const first = await place.start({ config: { ...config, channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 0.2, imageSize: 64 } }] } });
      const ig = igClient(first.url, KEY);
      const grid = await ig.waitFor((await ig.post('/ig/submit/imagine', { prompt: 'modal restart' })).body.result);
      const upscale = await ig.waitFor((await ig.post('/ig/submit/action', { taskId: grid.id, customId: grid.buttons[0].customId })).body.result);
      const zoom = await ig.post('/ig/submit/action', { taskId: upscale.id, customId: upscale.buttons.find((b: any) => b.label === 'Custom Zoom').customId });
      await first.close();
      const second = await place.start({ config });
      try {
        const ig2 = igClient(second.url, KEY);
        expect((await ig2.get(`/ig/task/${zoom.body.result}/fetch`)).body.status).toBe('MODAL');
        expect((await ig2.post('/ig/submit/modal', { taskId: zoom.body.result, prompt: 'after restart' })).body.code).toBe(1);
        expect(await ig2.waitFor(zoom.body.result)).toMatchObject({ status: 'SUCCESS', action: 'ZOOM' });
      } finally {
        await second.close();
      }
    } finally {
      await place.destroy();
    }
  });
});
