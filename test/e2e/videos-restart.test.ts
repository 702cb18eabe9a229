/**
 * Video tasks outlive their gateway, on SQLite and PostgreSQL: stop a gateway
 * with videos in flight and start another on the same database, and every
 * video finishes and downloads (one final callback each, the video object);
 * after a crash, tasks are taken over once the dead instance's leases lapse,
 * and a submission the crash interrupted fails visibly and is refunded; a
 * video that outlives its timeout fails and is refunded once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';
import { createPlace, ENGINES } from '../support/places.js';
import { inspectMp4 } from '../families/videos/mp4.js';
import { videoHttp } from '../families/videos/support.js';

const KEY = 'sk-videos-restart-0001';
const config = {
  channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 1.2, videoSize: 48 } }],
  keys: [{ name: 'restart', key: KEY, quota: 10 }],
  prices: { '*': { perSecond: 0.1 } },
};
const FINAL = new Set(['succeeded', 'failed']);

describe.each(ENGINES)('video tasks across restarts on %s', (engine) => {
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    receiver = await startCallbackReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const used = async (gw: TestGateway) => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'restart').used as number;

  async function submitMany(gw: TestGateway): Promise<string[]> {
    const http = videoHttp(gw.url, KEY);
    const ids: string[] = [];
    for (const [path, body] of [
      ['/v1/videos', { prompt: 'restart one', seconds: '1' }],
      ['/v1/videos', { prompt: 'restart two', seconds: '2', size: '1280x720' }],
      ['/v1/video/generations', { model: 'wan2.2-t2v-plus', prompt: 'restart three', duration: 1, size: '832*480' }],
    ] as const) {
      const created = await http.post(path, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.id);
    }
    return ids;
  }

  const finalCallbacks = (path: string, id: string) => receiver.received.filter((entry) => entry.path === path && entry.body.id === id && FINAL.has(entry.body.status));

  it('finishes every video after the gateway was stopped mid-flight', async () => {
    const place = await createPlace(engine);
    const env = { SWITCHYARD_NOTIFY_HOOK: `${receiver.url}/graceful-${engine}` };
    try {
      const first = await place.start({ config, env });
      const ids = await submitMany(first);
      const http = videoHttp(first.url, KEY);
      await http.waitFor(ids[0], (video) => video.progress >= 10);
      expect((await http.get(`/v1/videos/${ids[2]}`)).body.status).toBe('processing');
      await first.close();

      const second = await place.start({ config, env });
      try {
        const http2 = videoHttp(second.url, KEY);
        const done = await Promise.all(ids.map((id) => http2.waitFor(id)));
        expect(done.map((video) => video.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
        expect(done[1].url.startsWith(`${second.url}/v1/videos/files/`)).toBe(true);
        const content = await http2.get(`/v1/videos/${ids[1]}/content`);
        expect(inspectMp4(content.bytes).seconds).toBeCloseTo(2, 2);
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const id of ids) {
          const finals = finalCallbacks(`/graceful-${engine}`, id);
          expect(finals).toHaveLength(1);
          expect(finals[0].body).toMatchObject({ id, object: 'video', status: 'succeeded', progress: 100 });
        }
        expect(await used(second)).toBeCloseTo(0.4);
      } finally {
        await second.close();
      }
    } finally {
      await place.destroy();
    }
  });

  it('takes over after a crash once the leases lapse, and fails an interrupted submission with a refund', async () => {
    const place = await createPlace(engine);
    try {
      const first = await place.start({ config });
      const ids = await submitMany(first);
      await first.close();
      const store = await place.openStore();
      const key = await store.keys.getByName('restart');
      const leaseUntil = Date.now() + 2_000;
      await store.db.updateTable('tasks').set({ lease_owner: 'crashed-instance', lease_until: leaseUntil }).where('id', 'in', ids).execute();
      await store.close();

      const second = await place.start({ config, env: { SWITCHYARD_TASK_LEASE_MS: '600' } });
      try {
        const interrupted = await second.gateway.ctx.tasks.tasks.create({
          family: 'videos',
          action: 'GENERATE',
          keyId: key!.id,
          channelId: 'builtin-simulator',
          request: { model: 'sora-2', kind: 'standard', prompt: 'lost', seconds: 1, width: 720, height: 1280, tier: '720P', options: {}, publicBase: second.url },
          cost: 0.1,
          timeoutMs: 60_000,
          leaseOwner: 'crashed-instance',
          leaseMs: 600,
        });
        const http = videoHttp(second.url, KEY);
        const done = await Promise.all(ids.map((id) => http.waitFor(id)));
        expect(done.every((video) => video.status === 'succeeded')).toBe(true);
        for (const id of ids) expect((await second.gateway.ctx.tasks.tasks.get(id))!.updatedAt).toBeGreaterThanOrEqual(leaseUntil);
        const lost = await http.waitFor(interrupted.id);
        expect(lost).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
        expect(lost.error.message).toMatch(/stopped before the upstream accepted/);
        expect(await used(second)).toBeCloseTo(0.4);
      } finally {
        await second.close();
      }
    } finally {
      await place.destroy();
    }
  });

  it('fails a video past its timeout and refunds it once', async () => {
    const place = await createPlace(engine);
    try {
      const gw = await place.start({
        config: { ...config, channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 60 } }], taskTimeouts: { videos: 1 } },
      });
      try {
        const http = videoHttp(gw.url, KEY);
        const created = await http.post('/v1/video/generations', { prompt: 'too slow', duration: 3 });
        expect(await used(gw)).toBeCloseTo(0.3);
        const failed = await http.waitFor(created.body.id, undefined, 8_000);
        expect(failed).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
        const generation = (await http.get(`/v1/video/generations/${created.body.id}`)).body;
        expect(generation.error).toEqual({ code: 504, message: 'the task did not finish within 1 seconds' });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await used(gw)).toBeCloseTo(0);
        await gw.gateway.ctx.recorder.flush();
        const refunds = (await gw.admin('GET', '/logs?limit=50')).body.data.filter((row: any) => row.requestId === `refund:${created.body.id}`);
        expect(refunds).toHaveLength(1);
      } finally {
        await gw.close();
      }
    } finally {
      await place.destroy();
    }
  });
});
