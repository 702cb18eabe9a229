/**
 * Two gateways on one PostgreSQL database (and one media directory), both
 * running their task loops over the same tasks: an ig-proxy service that
 * catches overlapping polls sees none, each task reaches its final state once
 * (one final callback each), charges and refunds add up exactly, and both
 * instances' loops polled part of the tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { skipPostgres } from '../storage/engines.js';
import { startCallbackReceiver, type CallbackReceiver } from '../tasks/callback-receiver.js';
import { startFakeImageService, type FakeImageService } from '../upstreams/ig-proxy/fake-service.js';
import { createPlace, type Place } from '../support/places.js';
import { igClient, pngDataUrl } from '../families/images/support.js';

const KEY = 'sk-images-pair-000001';
const FINAL = new Set(['SUCCESS', 'FAILURE']);

describe.skipIf(skipPostgres)('two gateways on one PostgreSQL', () => {
  let service: FakeImageService;
  let receiver: CallbackReceiver;
  let place: Place;
  let one: TestGateway;
  let two: TestGateway;
  const polls = { one: 0, two: 0 };

  beforeAll(async () => {
    service = await startFakeImageService({ stepMs: 60, listDelayMs: 25 });
    service.failPrompt('doomed');
    receiver = await startCallbackReceiver();
    place = await createPlace('postgres');
    const config = {
      channels: [
        {
          name: 'vendor',
          type: 'ig-proxy',
          baseUrl: service.origin,
          apiKey: 'upstream-secret-0001',
          models: ['ig_*'],
          settings: { pathPrefix: '/vend', secretHeader: 'vend-api-secret', botTypes: { MID_GEN: 'VEND_BOT' }, customIdPrefix: 'VEND' },
        },
        { name: 'sim', type: 'simulator', settings: { taskSeconds: 0.5, imageSize: 64, failTasks: ['BLEND'] } },
      ],
      keys: [{ name: 'pair', key: KEY, quota: 100 }],
      prices: { 'ig_*': { perCall: 0.1 } },
    };
    // Small batches and short pauses make the two loops contend for the same tasks.
    const env = { SWITCHYARD_TASK_TICK_MS: '5', SWITCHYARD_TASK_FIRST_POLL_MS: '5', SWITCHYARD_TASK_MAX_POLL_MS: '20' };
    one = await place.start({ config, env });
    two = await place.start({ config, env });
    // Each instance polls through its own counting view of the upstreams, to show both loops did work.
    for (const [name, gw] of [
      ['one', one],
      ['two', two],
    ] as const) {
      const engine = gw.gateway.ctx.tasks;
      for (const type of ['ig-proxy', 'simulator']) {
        const upstream = engine.upstream('images', type)!;
        engine.registerUpstream({
          ...upstream,
          kind: upstream.kind,
          type: upstream.type,
          poll: (tasks, call) => {
            polls[name] += tasks.length;
            return upstream.poll(tasks, call);
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
    const hook = `${receiver.url}/pair`;
    const submissions: Array<[TestGateway, string, unknown]> = [];
    for (let i = 0; i < 12; i++) {
      const gw = i % 2 ? one : two;
      submissions.push([gw, '/ig/submit/imagine', { prompt: i % 4 === 0 ? `doomed ${i}` : `vendor ${i}`, accountFilter: { instanceId: 'vendor' }, notifyHook: hook }]);
      submissions.push([gw, '/ig/submit/imagine', { prompt: `simulated ${i}`, accountFilter: { instanceId: 'sim' }, notifyHook: hook }]);
    }
    for (let i = 0; i < 4; i++) {
      submissions.push([i % 2 ? one : two, '/ig/submit/blend', { base64Array: [pngDataUrl(i, 0, 0), pngDataUrl(0, i, 0)], accountFilter: { instanceId: 'sim' }, notifyHook: hook }]);
    }
    const ids = await Promise.all(
      submissions.map(async ([gw, path, body]) => {
        const { status, body: envelope } = await igClient(gw.url, KEY).post(path, body);
        expect(status, JSON.stringify(envelope)).toBe(200);
        return envelope.result as string;
      }),
    );
    const reader = igClient(one.url, KEY);
    const deadline = Date.now() + 20_000;
    let tasks: any[] = [];
    for (;;) {
      tasks = (await reader.post('/ig/task/list-by-condition', { ids })).body;
      if (tasks.length === ids.length && tasks.every((task) => FINAL.has(task.status))) break;
      if (Date.now() > deadline) throw new Error('tasks did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const failures = tasks.filter((task) => task.status === 'FAILURE');
    expect(failures).toHaveLength(3 + 4);
    expect(service.overlaps).toBe(0);
    // Polled through the list endpoint; how many rounds it took depends on the machine's speed (the service's steps are timed).
    expect(service.listCalls.length).toBeGreaterThan(0);

    // One final callback per task, even with two senders.
    const finalsDeadline = Date.now() + 5_000;
    const finals = () => receiver.received.filter((entry) => entry.path === '/pair' && FINAL.has(entry.body.status));
    while (finals().length < ids.length && Date.now() < finalsDeadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finals()).toHaveLength(ids.length);
    expect(new Set(finals().map((entry) => entry.body.id)).size).toBe(ids.length);

    const key = (await one.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'pair');
    expect(key.used).toBeCloseTo(0.1 * (ids.length - failures.length));
    await one.gateway.ctx.recorder.flush();
    await two.gateway.ctx.recorder.flush();
    const logs = (await one.admin('GET', '/logs?limit=500')).body.data;
    const refunds = logs.filter((row: any) => String(row.requestId).startsWith('refund:'));
    expect(refunds).toHaveLength(failures.length);
    expect(new Set(refunds.map((row: any) => row.requestId)).size).toBe(failures.length);

    expect(polls.one).toBeGreaterThan(0);
    expect(polls.two).toBeGreaterThan(0);
  });
});
