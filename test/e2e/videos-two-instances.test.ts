/**
 * Two gateways on one PostgreSQL database (and one media directory), both
 * running their task loops over the same video tasks, on an `openai-videos`
 * channel and the simulator: no task is polled by both at once, each reaches
 * its final state once (one final callback each), charges and refunds add
 * up exactly, both loops did part of the work, and either instance serves
 * every video.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { skipPostgres } from '../storage/engines.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';
import { createPlace, type Place } from '../support/places.js';
import { inspectMp4 } from '../families/videos/mp4.js';
import { videoHttp } from '../families/videos/support.js';
import { startFakeVideoService, type FakeVideoService } from '../upstreams/openai-videos/fake-service.js';

const KEY = 'sk-videos-pair-000001';
const UPSTREAM_KEY = 'sk-upstream-pair-00001';
const FINAL = new Set(['succeeded', 'failed']);

describe.skipIf(skipPostgres)('two gateways running video tasks on one PostgreSQL', () => {
  let service: FakeVideoService;
  let receiver: CallbackReceiver;
  let place: Place;
  let one: TestGateway;
  let two: TestGateway;
  const polls = { one: 0, two: 0 };
  const inFlight = new Map<string, number>();
  let overlaps = 0;

  beforeAll(async () => {
    service = await startFakeVideoService({ key: UPSTREAM_KEY, stepMs: 40 });
    receiver = await startCallbackReceiver();
    place = await createPlace('postgres');
    const config = {
      channels: [
        { name: 'vendor', type: 'openai-videos', baseUrl: service.baseUrl, apiKey: UPSTREAM_KEY, models: ['sora-*'] },
        { name: 'sim', type: 'simulator', models: ['sim-*'], settings: { taskSeconds: 0.4, videoSize: 48, failTasks: ['sim-doomed'] } },
      ],
      keys: [{ name: 'pair', key: KEY, quota: 100 }],
      prices: { '*': { perSecond: 0.1 } },
    };
    const env = {
      SWITCHYARD_TASK_TICK_MS: '5',
      SWITCHYARD_TASK_FIRST_POLL_MS: '5',
      SWITCHYARD_TASK_MAX_POLL_MS: '20',
      SWITCHYARD_NOTIFY_HOOK: `${receiver.url}/pair`,
    };
    one = await place.start({ config, env });
    two = await place.start({ config, env });
    // Each instance polls through a counting view of the upstreams that also catches two polls of one task at once.
    for (const [name, gw] of [
      ['one', one],
      ['two', two],
    ] as const) {
      const engine = gw.gateway.ctx.tasks;
      for (const type of ['openai-videos', 'simulator']) {
        const upstream = engine.upstream('videos', type)!;
        engine.registerUpstream({
          ...upstream,
          poll: async (tasks, call) => {
            polls[name] += tasks.length;
            for (const task of tasks) {
              const now = (inFlight.get(task.id) ?? 0) + 1;
              inFlight.set(task.id, now);
              if (now > 1) overlaps++;
            }
            try {
              return await upstream.poll(tasks, call);
            } finally {
              for (const task of tasks) inFlight.set(task.id, (inFlight.get(task.id) ?? 1) - 1);
            }
          },
        });
      }
    }
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await place?.destroy();
    await receiver?.close();
    await service?.close();
  });

  it('polls no task twice at once, finishes each once, and charges and refunds exactly', async () => {
    const submissions: Array<[TestGateway, string, unknown]> = [];
    for (let i = 0; i < 8; i++) {
      const gw = i % 2 ? one : two;
      submissions.push([gw, '/v1/videos', { model: 'sora-2', prompt: i % 4 === 0 ? `doomed ${i}` : `vendor ${i}`, seconds: '4' }]);
      submissions.push([gw, '/v1/video/generations', { model: i % 4 === 1 ? 'sim-doomed' : 'sim-video', prompt: `simulated ${i}`, duration: 1 }]);
    }
    const ids = await Promise.all(
      submissions.map(async ([gw, path, body]) => {
        const created = await videoHttp(gw.url, KEY).post(path, body);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.id as string;
      }),
    );
    const reader = videoHttp(one.url, KEY);
    const videos = await Promise.all(ids.map((id) => reader.waitFor(id, undefined, 20_000)));
    const failures = videos.filter((video) => video.status === 'failed');
    expect(failures).toHaveLength(2 + 2);
    expect(overlaps).toBe(0);

    const finalsDeadline = Date.now() + 5_000;
    const finals = () => receiver.received.filter((entry) => entry.path === '/pair' && FINAL.has(entry.body.status));
    while (finals().length < ids.length && Date.now() < finalsDeadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finals()).toHaveLength(ids.length);
    expect(new Set(finals().map((entry) => entry.body.id)).size).toBe(ids.length);

    const charged = videos.reduce((sum, video) => sum + (video.status === 'succeeded' ? 0.1 * Number(video.seconds) : 0), 0);
    const key = (await one.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'pair');
    expect(key.used).toBeCloseTo(charged);
    await one.gateway.ctx.recorder.flush();
    await two.gateway.ctx.recorder.flush();
    const refunds = (await one.admin('GET', '/logs?limit=500')).body.data.filter((row: any) => String(row.requestId).startsWith('refund:'));
    expect(refunds).toHaveLength(failures.length);
    expect(new Set(refunds.map((row: any) => row.requestId)).size).toBe(failures.length);

    expect(polls.one).toBeGreaterThan(0);
    expect(polls.two).toBeGreaterThan(0);
    // Either instance serves any video (shared database and media directory).
    const succeeded = videos.find((video) => video.status === 'succeeded' && video.model === 'sim-video')!;
    for (const gw of [one, two]) {
      const content = await videoHttp(gw.url, KEY).get(`/v1/videos/${succeeded.id}/content`);
      expect(inspectMp4(content.bytes).seconds).toBeCloseTo(1, 2);
    }
  });
});
