/**
 * The task repository on both engines: charge on create (all or nothing),
 * compare-and-set transitions, settle or refund exactly once, lease claims
 * that never hand one task to two owners.
 */
import { describe, expect, it } from 'vitest';
import { engines, useTestStore } from '../storage/engines.js';
import { TaskRepository } from '../../src/tasks/repository.js';
import { taskDb } from '../../src/tasks/schema.js';
import { newTask } from './support.js';

describe.each(engines)('task repository on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  const repo = () => new TaskRepository(taskDb(opened.store), opened.store.engine);
  let keyCount = 0;
  const makeKey = (quota: number | null = null) => opened.store.keys.create({ name: `k${++keyCount}`, keyHash: `hash-${engine}-${keyCount}`, keyPrefix: 'sk-test', quota });

  it.skipIf(skip)('creates a numeric-id task and charges its cost in the same transaction', async () => {
    const key = await makeKey(1);
    const task = await repo().create(newTask(key.id, { cost: 0.25 }));
    expect(task.id).toMatch(/^\d{16}$/);
    expect(task.status).toBe('NOT_START');
    expect(task.billing).toBe('charged');
    expect(task.version).toBe(0);
    expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0.25);
    expect(await repo().get(task.id)).toEqual(task);
  });

  it.skipIf(skip)('refuses a task the quota cannot cover, and stores nothing', async () => {
    const key = await makeKey(0.3);
    await repo().create(newTask(key.id, { cost: 0.2 }));
    await expect(repo().create(newTask(key.id, { cost: 0.2 }))).rejects.toMatchObject({ kind: 'quota_exhausted' });
    const count = await taskDb(opened.store)
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('key_id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0.2);
    // A price that exactly fits the rest of the quota is accepted despite float sums.
    await repo().create(newTask(key.id, { cost: 0.1 }));
    expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0.3);
  });

  it.skipIf(skip)('applies one of two changes made from the same version', async () => {
    const key = await makeKey();
    const task = await repo().create(newTask(key.id));
    const [a, b] = await Promise.all([repo().transition(task, { status: 'SUBMITTED', upstreamId: 'a' }), repo().transition(task, { status: 'SUBMITTED', upstreamId: 'b' })]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const stored = await repo().get(task.id);
    expect(stored!.version).toBe(1);
    expect(stored!.upstreamId).toBe((a ?? b)!.upstreamId);
  });

  it.skipIf(skip)('refunds a failed task once, even when two failures race', async () => {
    const key = await makeKey(5);
    const task = await repo().create(newTask(key.id, { cost: 1 }));
    const results = await Promise.all([
      repo().transition(task, { status: 'FAILURE', failReason: 'one' }),
      repo().transition(task, { status: 'FAILURE', failReason: 'two' }),
      repo().transition(task, { status: 'SUCCESS' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = (await repo().get(task.id))!;
    const used = (await opened.store.keys.get(key.id))!.used;
    if (stored.status === 'SUCCESS') {
      expect(stored.billing).toBe('settled');
      expect(used).toBeCloseTo(1);
    } else {
      expect(stored.billing).toBe('refunded');
      expect(used).toBeCloseTo(0);
    }
    expect(stored.nextPollAt).toBeNull();
    expect(stored.finishTime).not.toBeNull();
    // A later change from the stale version changes nothing.
    expect(await repo().transition(task, { status: 'FAILURE' })).toBeUndefined();
    expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(used);
  });

  it.skipIf(skip)('settles a success without moving money', async () => {
    const key = await makeKey();
    const task = await repo().create(newTask(key.id, { cost: 0.5 }));
    const done = await repo().transition(task, { status: 'SUCCESS', progress: 100, result: { ok: 1 } });
    expect(done).toMatchObject({ status: 'SUCCESS', billing: 'settled', result: { ok: 1 }, version: 1 });
    expect((await opened.store.keys.get(key.id))!.used).toBeCloseTo(0.5);
  });

  it.skipIf(skip)('hands each due task to one owner only', async () => {
    const key = await makeKey();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const task = await repo().create(newTask(key.id, { leaseMs: 0 }));
      await repo().transition(task, { status: 'SUBMITTED', upstreamId: `u${i}`, nextPollAt: Date.now() - 1 });
      ids.push(task.id);
    }
    const [first, second, third] = await Promise.all([repo().claimDue('one', 5_000, 20), repo().claimDue('two', 5_000, 20), repo().claimDue('three', 5_000, 20)]);
    const all = [...first, ...second, ...third].map((task) => task.id).filter((id) => ids.includes(id));
    // No claim takes more than it asked for, even when another claim changed the rows it picked.
    for (const claimed of [first, second, third]) expect(claimed.length).toBeLessThanOrEqual(20);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(30);
    expect(await repo().claimDue('four', 5_000, 50)).toHaveLength(0);
  });

  it.skipIf(skip)('lets another owner take a task whose lease ran out, and only the holder reschedules it', async () => {
    const key = await makeKey();
    const created = await repo().create(newTask(key.id));
    await repo().transition(created, { status: 'SUBMITTED', upstreamId: 'x', nextPollAt: Date.now() - 1 });
    const [claimed] = await repo().claimDue('crashed', 1, 500);
    expect(claimed.id).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const taken = await repo().claimDue('survivor', 5_000, 500);
    expect(taken.map((task) => task.id)).toContain(claimed.id);
    await repo().reschedule('crashed', [{ id: claimed.id, nextPollAt: 1 }]);
    expect((await repo().get(claimed.id))!.leaseOwner).toBe('survivor');
    await repo().reschedule('survivor', [{ id: claimed.id, nextPollAt: 42 }]);
    const after = (await repo().get(claimed.id))!;
    expect(after).toMatchObject({ leaseOwner: null, nextPollAt: 42, pollCount: 1 });
  });

  it.skipIf(skip)('lists only the owner’s tasks, in the order asked, without unknown ids', async () => {
    const mine = await makeKey();
    const theirs = await makeKey();
    const a = await repo().create(newTask(mine.id));
    const b = await repo().create(newTask(mine.id));
    const c = await repo().create(newTask(theirs.id));
    const listed = await repo().listOwned([b.id, 'nope', c.id, a.id, b.id], mine.id, 'test');
    expect(listed.map((task) => task.id)).toEqual([b.id, a.id]);
    expect(await repo().getOwned(c.id, mine.id, 'test')).toBeUndefined();
    expect(await repo().getOwned(a.id, mine.id, 'other-family')).toBeUndefined();
  });
});
