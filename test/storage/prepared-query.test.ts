/**
 * Queries compiled once: each call binds its own values in their places
 * (arguments in any order, constants of the query kept), on both engines;
 * and reads by id batched per turn of the event loop.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BatchedReads } from '../../src/storage/batched-reads.js';
import { PreparedQuery } from '../../src/storage/prepared-query.js';
import { engines, useTestStore } from './engines.js';

describe.each(engines)('prepared queries on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);

  it.skipIf(skip)("bind every call's own values, around the constants of the query", async () => {
    const query = new PreparedQuery(opened.store.db, (db, first: string, second: string) =>
      db.selectNoFrom([sql<string>`${second}`.as('b'), sql<string>`${'fixed'}`.as('c'), sql<string>`${first}`.as('a')]),
    );
    expect(await query.execute('x', 'y')).toEqual([{ b: 'y', c: 'fixed', a: 'x' }]);
    expect(await query.execute('p', 'q')).toEqual([{ b: 'q', c: 'fixed', a: 'p' }]);
  });
});

describe('batched reads', () => {
  function reader(rows: Record<string, { id: string; n: number }>) {
    const calls: string[][] = [];
    const reads = new BatchedReads(
      async (ids: string[]) => {
        calls.push(ids);
        return ids.flatMap((id) => (rows[id] ? [rows[id]] : []));
      },
      (row) => row.id,
      3,
    );
    return { reads, calls };
  }

  it('read the ids asked for in one turn with one call, each caller getting its own row', async () => {
    const { reads, calls } = reader({ a: { id: 'a', n: 1 }, b: { id: 'b', n: 2 } });
    const answers = await Promise.all([reads.get('a'), reads.get('b'), reads.get('a')]);
    expect(answers).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'a', n: 1 },
    ]);
    expect(calls).toEqual([['a', 'b']]);
    expect(await reads.get('missing')).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it('start a new batch once one holds the most ids', async () => {
    const { reads, calls } = reader({ a: { id: 'a', n: 1 }, b: { id: 'b', n: 2 }, c: { id: 'c', n: 3 }, d: { id: 'd', n: 4 } });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((id) => reads.get(id)));
    expect(answers.map((row) => row?.n)).toEqual([1, 2, 3, 4]);
    expect(calls).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('fail every caller of a batch whose read fails, and only those', async () => {
    let fail = true;
    const reads = new BatchedReads(
      async (ids: string[]) => {
        if (fail) throw new Error('connection lost');
        return ids.map((id) => ({ id }));
      },
      (row) => row.id,
    );
    const failed = await Promise.allSettled([reads.get('a'), reads.get('b')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await reads.get('a')).toEqual({ id: 'a' });
  });
});
