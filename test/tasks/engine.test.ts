/**
 * The engine's loop on both storage engines: polling to a final state, media
 * stored on success, failure and timeout refunded once, interrupted
 * submissions failed visibly, callbacks queued and retried, and two engines
 * sharing one database without ever polling one task at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, useTestStore } from '../storage/engines.js';
import type { TaskEngine } from '../../src/tasks/engine.js';
import type { Store } from '../../src/storage/types.js';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver.js';
import { buildEngine, newTask, ScriptedUpstream, submitTask, waitFor } from './support.js';

let receiver: CallbackReceiver;
beforeAll(async () => {
  receiver = await startCallbackReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe.each(engines)('task engine on $engine', ({ engine: kind, skip }) => {
  const opened = useTestStore(kind, skip);
  let keys = 0;
  const makeKey = (quota: number | null = null) => opened.store.keys.create({ name: `e${++keys}`, keyHash: `engine-${kind}-${keys}`, keyPrefix: 'sk-test', quota });

  async function withEngine<T>(upstream: ScriptedUpstream, run: (engine: TaskEngine) => Promise<T>, options = {}, store: Store = opened.store): Promise<T> {
    const engine = await buildEngine(store, upstream, options);
    engine.start();
    try {
      return await run(engine);
    } finally {
      await engine.stop();
    }
  }

  const finished = (engine: TaskEngine, id: string) => async () => {
    const task = await engine.tasks.get(id);
    return task && task.nextPollAt === null ? task : undefined;
  };

  it.skipIf(skip)('polls a task to success and stores its media', async () => {
    const key = await makeKey();
    await withEngine(new ScriptedUpstream(3), async (engine) => {
      const task = await submitTask(engine, key.id);
      expect(task.status).toBe('SUBMITTED');
      const done = await waitFor(finished(engine, task.id));
      expect(done).toMatchObject({ status: 'SUCCESS', progress: 100, leaseOwner: null });
      expect(done.startTime).not.toBeNull();
      expect(done.finishTime).toBeGreaterThanOrEqual(done.startTime!);
      const media = (done.result as any).media;
      expect(media).toHaveLength(1);
      expect(media[0]).toMatchObject({ contentType: 'image/png', size: 16 });
      const object = await engine.media.open(media[0].key);
      expect(object?.size).toBe(16);
      object?.stream.destroy();
    });
  });

  it.skipIf(skip)('refunds a task the upstream fails, once', async () => {
    const key = await makeKey(2);
    await withEngine(new ScriptedUpstream(2, true), async (engine) => {
      const task = await submitTask(engine, key.id, { cost: 1.5 });
      expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(1.5);
      const done = await waitFor(finished(engine, task.id));
      expect(done).toMatchObject({ status: 'FAILURE', failReason: 'scripted failure', billing: 'refunded' });
      expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0);
    });
  });

  it.skipIf(skip)('fails and refunds a task that runs past its timeout', async () => {
    const key = await makeKey();
    await withEngine(new ScriptedUpstream(1e9), async (engine) => {
      const task = await submitTask(engine, key.id, { cost: 0.5, timeoutMs: 250 });
      const done = await waitFor(finished(engine, task.id));
      expect(done.status).toBe('FAILURE');
      expect(done.failReason).toMatch(/did not finish within/);
      expect(done.billing).toBe('refunded');
      expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0);
    });
  });

  it.skipIf(skip)('fails a task whose submission never completed once its lease lapses', async () => {
    const key = await makeKey();
    const upstream = new ScriptedUpstream(1);
    await withEngine(upstream, async (engine) => {
      // As if an instance died between storing the task and hearing from the upstream.
      const task = await engine.tasks.create(newTask(key.id, { cost: 0.25, leaseOwner: 'dead-instance', leaseMs: 150 }));
      const done = await waitFor(finished(engine, task.id));
      expect(done.status).toBe('FAILURE');
      expect(done.failReason).toMatch(/before the upstream accepted/);
      expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0);
      expect(upstream.pollCalls).toBe(0);
    });
  });

  it.skipIf(skip)('keeps polling through upstream errors', async () => {
    const key = await makeKey();
    const upstream = new ScriptedUpstream(2);
    upstream.failPolls = true;
    await withEngine(upstream, async (engine) => {
      const task = await submitTask(engine, key.id);
      await waitFor(async () => upstream.pollCalls >= 2);
      expect((await engine.tasks.get(task.id))!.status).toBe('SUBMITTED');
      upstream.failPolls = false;
      expect((await waitFor(finished(engine, task.id))).status).toBe('SUCCESS');
    });
  });

  it.skipIf(skip)('sends a callback per status change and retries the final one until it lands', async () => {
    const key = await makeKey();
    const path = `/hook-${kind}-${Date.now()}`;
    const mine = () => receiver.received.filter((entry) => entry.path === path);
    await withEngine(new ScriptedUpstream(3), async (engine) => {
      const task = await submitTask(engine, key.id, { notifyHook: `${receiver.url}${path}` });
      await waitFor(async () => mine().some((entry) => entry.body.status === 'IN_PROGRESS'));
      receiver.answer(500);
      await waitFor(finished(engine, task.id));
      await waitFor(async () => mine().filter((entry) => entry.body.status === 'SUCCESS').length >= 2);
      receiver.answer(200);
      const deliveries = await waitFor(async () => {
        const list = await engine.deliveries.listForTask(task.id);
        return list.some((entry) => entry.final && entry.status === 'delivered') ? list : undefined;
      });
      const final = deliveries.filter((entry) => entry.final);
      expect(final).toHaveLength(1);
      expect(final[0].attempts).toBeGreaterThanOrEqual(3);
      expect(final[0].lastStatus).toBe(200);
      const statuses = mine().map((entry) => entry.body.status);
      expect(statuses[0]).toBe('SUBMITTED');
      expect(statuses).toContain('IN_PROGRESS');
      expect(statuses.at(-1)).toBe('SUCCESS');
    });
  });

  it.skipIf(skip)('refuses to call back a private address that is not allowed', async () => {
    const key = await makeKey();
    const engine = await buildEngine(opened.store, new ScriptedUpstream(1), {}, []);
    engine.start();
    try {
      const task = await submitTask(engine, key.id, { notifyHook: `${receiver.url}/private` });
      const list = await waitFor(async () => {
        const deliveries = await engine.deliveries.listForTask(task.id);
        return deliveries.find((entry) => entry.final && entry.status !== 'pending') ? deliveries : undefined;
      });
      const final = list.find((entry) => entry.final)!;
      expect(final.status).toBe('failed');
      expect(final.lastError).toMatch(/private or reserved/);
      expect(receiver.received.some((entry) => entry.path === '/private')).toBe(false);
    } finally {
      await engine.stop();
    }
  });

  it.skipIf(skip)('shares one database between two engines: no task polled twice at once, each settled once', async () => {
    const key = await makeKey();
    const second = await opened.database.open();
    const upstream = new ScriptedUpstream(3);
    upstream.pollDelayMs = 15;
    const path = `/pair-${kind}`;
    // Each engine sees the one upstream through its own counter, to show both did work.
    const counted = () => {
      const view = Object.create(upstream) as ScriptedUpstream & { calls: number };
      view.calls = 0;
      view.poll = (tasks, call) => {
        view.calls++;
        return upstream.poll(tasks, call);
      };
      return view;
    };
    const viewOne = counted();
    const viewTwo = counted();
    const one = await buildEngine(opened.store, viewOne, { batchSize: 7 });
    const two = await buildEngine(second, viewTwo, { batchSize: 7 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const task = await submitTask(i % 2 ? one : two, key.id, {
          cost: 0.1,
          request: { fail: i % 4 === 0 },
          notifyHook: `${receiver.url}${path}`,
        });
        ids.push(task.id);
      }
      one.start();
      two.start();
      const done = await waitFor(async () => {
        const tasks = await one.tasks.listOwned(ids, key.id, 'test');
        return tasks.every((task) => task.nextPollAt === null) ? tasks : undefined;
      }, 15_000);
      await waitFor(async () => receiver.received.filter((entry) => entry.path === path && ['SUCCESS', 'FAILURE'].includes(entry.body.status)).length >= 40);
      expect(upstream.overlaps).toBe(0);
      expect(viewOne.calls).toBeGreaterThan(0);
      expect(viewTwo.calls).toBeGreaterThan(0);
      const failures = done.filter((task) => task.status === 'FAILURE').length;
      expect(failures).toBe(10);
      expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0.1 * (40 - failures));
      const finals = receiver.received.filter((entry) => entry.path === path && ['SUCCESS', 'FAILURE'].includes(entry.body.status));
      expect(new Set(finals.map((entry) => entry.body.id)).size).toBe(40);
      expect(finals).toHaveLength(40);
    } finally {
      await one.stop();
      await two.stop();
      await second.close();
    }
  });

  it.skipIf(skip)('hands its leases back when it stops', async () => {
    const key = await makeKey();
    const upstream = new ScriptedUpstream(1e9);
    upstream.pollDelayMs = 200;
    const engine = await buildEngine(opened.store, upstream);
    const task = await submitTask(engine, key.id);
    engine.start();
    await waitFor(async () => upstream.pollCalls > 0);
    await engine.stop();
    expect((await engine.tasks.get(task.id))!.leaseOwner).toBeNull();
  });
});
