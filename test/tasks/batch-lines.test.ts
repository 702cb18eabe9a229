/**
 * Batch lines on both engines: claims take at most what was asked and never
 * a line another instance holds, a line whose lease ran out is claimed again
 * with the next attempt, and only the attempt holding the lease writes the
 * answer, once; a cancel ends the idle lines and leaves the running ones;
 * two claims racing take disjoint lines.
 */
import { describe, expect, it } from 'vitest';
import { BatchLineRepository, type LineAnswer } from '../../src/tasks/batches/lines.js';
import { BatchRepository } from '../../src/tasks/batches/repository.js';
import { batchDb, newBatchId, type BatchesTable } from '../../src/tasks/batches/schema.js';
import { engines, useTestStore } from '../storage/engines.js';

const OK: LineAnswer = { status: 'succeeded', requestId: 'req_1', response: { status_code: 200, body: { ok: true } }, error: null };

function batchRow(now: number): BatchesTable {
  return {
    id: newBatchId('openai', now),
    api: 'openai',
    key_id: 'key_batch',
    team_id: null,
    user_id: null,
    endpoint: '/v1/chat/completions',
    input_file_id: null,
    completion_window: '24h',
    status: 'in_progress',
    errors: null,
    metadata: null,
    output_file_id: null,
    error_file_id: null,
    total: 0,
    counts: null,
    usage: null,
    version: 0,
    created_at: now,
    in_progress_at: now,
    expires_at: now + 86_400_000,
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    updated_at: now,
  };
}

describe.each(engines)('batch lines on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);

  async function seeded(count: number) {
    const db = batchDb(opened.store);
    const batches = new BatchRepository(db);
    const lines = new BatchLineRepository(db, opened.store.engine);
    const row = { ...batchRow(Date.now()), total: count };
    const batch = await batches.create(
      row,
      Array.from({ length: count }, (_, i) => ({ customId: `c-${i}`, body: JSON.stringify({ i }) })),
    );
    return { batch, batches, lines };
  }

  it.skipIf(skip)('answers a line once: a stale attempt is refused after another instance took the line', async () => {
    const { batch, lines } = await seeded(3);
    const now = Date.now();
    const first = await lines.claim(batch.id, 'one', 1_000, 2, now);
    expect(first.map((line) => [line.index, line.attempt])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    // Held lines are not claimed again while their lease runs.
    expect((await lines.claim(batch.id, 'two', 1_000, 5, now + 10)).map((line) => line.index)).toEqual([2]);
    // Once it ran out, instance two takes line 0 with the next attempt.
    const again = await lines.claim(batch.id, 'two', 1_000, 1, now + 5_000);
    expect(again.map((line) => [line.index, line.attempt])).toEqual([[0, 2]]);
    expect(await lines.answer(first[0], 'one', OK)).toBe(false);
    expect(await lines.answer(again[0], 'two', OK)).toBe(true);
    expect(await lines.answer(again[0], 'two', OK)).toBe(false);
    expect(await lines.answer(first[1], 'one', OK)).toBe(true);
    expect(await lines.counts(batch.id)).toMatchObject({ pending: 1, succeeded: 2 });
  });

  it.skipIf(skip)('ends idle lines on cancel and leaves the running ones to answer', async () => {
    const { batch, lines } = await seeded(5);
    const running = await lines.claim(batch.id, 'one', 60_000, 2);
    const ended = await lines.endIdle(batch.id, { status: 'cancelled', requestId: null, response: null, error: { code: 'batch_cancelled', message: 'cancelled' } });
    expect(ended).toBe(3);
    expect(await lines.hasPending(batch.id)).toBe(true);
    for (const line of running) expect(await lines.answer(line, 'one', OK)).toBe(true);
    expect(await lines.hasPending(batch.id)).toBe(false);
    expect(await lines.counts(batch.id)).toMatchObject({ succeeded: 2, cancelled: 3, pending: 0 });
    const answered = await lines.page(batch.id, -1, 10);
    expect(answered.map((line) => line.status)).toEqual(['succeeded', 'succeeded', 'cancelled', 'cancelled', 'cancelled']);
  });

  it.skipIf(skip)('gives racing claims disjoint lines, each at most its limit', async () => {
    const { batch, lines } = await seeded(200);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => lines.claim(batch.id, `owner-${i}`, 60_000, 10)));
    const indexes = claims.flat().map((line) => line.index);
    for (const claim of claims) expect(claim.length).toBeLessThanOrEqual(10);
    expect(new Set(indexes).size).toBe(indexes.length);
  });
});
