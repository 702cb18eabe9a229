/**
 * The delegation state machine on both engines, against the loopback OpenAI
 * Batch API: a create whose answer was lost (the instance died, or the
 * upstream failed after making it) is adopted by its metadata instead of
 * made twice; the lines come back answered once and billed once; delegated
 * lines are never claimed by the local runner nor ended by its cancel pass.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiBatchClient } from '../../src/server/openai-batch-client.js';
import type { DelegationHost } from '../../src/tasks/batches/delegation/host.js';
import { stepDelegation } from '../../src/tasks/batches/delegation/machine.js';
import { DelegationRepository } from '../../src/tasks/batches/delegation/repository.js';
import { type Delegation, delegationDb } from '../../src/tasks/batches/delegation/schema.js';
import { BatchLineRepository } from '../../src/tasks/batches/lines.js';
import { BatchRepository } from '../../src/tasks/batches/repository.js';
import { batchDb, newBatchId, type BatchesTable } from '../../src/tasks/batches/schema.js';
import { BATCH_FAKE_KEY, type BatchFake, startBatchFake } from '../e2e/openai-batch-fake.js';
import { engines, useTestStore } from '../storage/engines.js';

function batchRow(now: number, total: number): BatchesTable {
  return {
    ...{ id: newBatchId('openai', now), api: 'openai', key_id: 'key_batch', team_id: null, user_id: null, endpoint: '/v1/chat/completions', input_file_id: null },
    ...{ completion_window: '24h', status: 'in_progress', errors: null, metadata: null, output_file_id: null, error_file_id: null, total, counts: null, usage: null, version: 0 },
    ...{ created_at: now, in_progress_at: now, expires_at: now + 86_400_000, finalizing_at: null, completed_at: null, failed_at: null, expired_at: null },
    ...{ cancelling_at: null, cancelled_at: null, updated_at: now },
  };
}

describe.each(engines)('batch delegation on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let fake: BatchFake;
  beforeAll(async () => {
    fake = await startBatchFake();
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function seeded(count: number) {
    const db = batchDb(opened.store);
    const batches = new BatchRepository(db);
    const lines = new BatchLineRepository(db, opened.store.engine);
    const repo = new DelegationRepository(delegationDb(opened.store));
    const body = (i: number) => JSON.stringify({ model: 'client-model', messages: [{ role: 'user', content: `q${i}` }] });
    const batch = await batches.create(
      batchRow(Date.now(), count),
      Array.from({ length: count }, (_, i) => ({ customId: `c-${i}`, body: body(i) })),
    );
    return { batch, batches, lines, repo };
  }

  function host(billed: number[]): DelegationHost {
    return {
      client: () => openAiBatchClient(() => ({ baseUrl: `${fake.origin}/v1`, apiKey: BATCH_FAKE_KEY, timeoutMs: 5_000 })),
      delegates: () => true,
      routeOf: async () => () => undefined,
      bill: async (_batch, _delegation, line) => void billed.push(line.index),
      newRequestId: () => `req_${Math.random().toString(36).slice(2)}`,
    };
  }

  it.skipIf(skip)('adopts an upstream batch whose create answer was lost instead of creating a second', async () => {
    const { batch, batches, lines, repo } = await seeded(3);
    const id = await repo.create(batch.id, 'ch-1', 'gpt-upstream');
    expect(await repo.assign(id, batch.id, [0, 2])).toBe(2);
    // The local runner takes only the line that was not handed over, and its cancel pass would not end delegated lines.
    expect((await lines.claim(batch.id, 'local', 1_000, 10)).map((line) => line.index)).toEqual([1]);

    const billed: number[] = [];
    const deps = { repo, batches, host: host(billed), owner: 'me', logger: pino({ level: 'silent' }), pollMs: 1 };
    const before = fake.batches.length;
    fake.loseNextCreate = true;
    const step = async (): Promise<Delegation> => {
      const [claimed] = await repo.claimDue('me', 5_000, 10, Date.now() + 10_000);
      expect(claimed?.id).toBe(id);
      return (await repo.update(claimed!, 'me', await stepDelegation(deps, claimed!), true))!;
    };

    // Uploaded, created upstream, but the answer was a 500: tried again later.
    let delegation = await step();
    expect(delegation).toMatchObject({ state: 'preparing', attempt: 1, upstreamBatchId: null });
    expect(fake.batches.length).toBe(before + 1);
    // The next try finds it by its metadata.
    delegation = await step();
    expect(delegation).toMatchObject({ state: 'submitted', upstreamBatchId: fake.batches[before].id });
    expect(fake.batches.length).toBe(before + 1);
    expect(fake.batches[before].metadata).toEqual({ switchyard_delegation: id });
    const sent = fake.files
      .get(fake.batches[before].input_file_id)!
      .content.trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(sent.map((line) => [line.custom_id, line.body.model])).toEqual([
      ['0', 'gpt-upstream'],
      ['2', 'gpt-upstream'],
    ]);

    while (delegation.state !== 'done') delegation = await step();
    expect(billed.sort()).toEqual([0, 2]);
    const answered = await lines.page(batch.id, -1, 10);
    expect(answered.map((line) => [line.index, line.status])).toEqual([
      [0, 'succeeded'],
      [2, 'succeeded'],
    ]);
    expect((answered[0].response!.body as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe('batch answer to 0');
  });

  it.skipIf(skip)('leases a delegation to one instance at a time', async () => {
    const { batch, repo } = await seeded(1);
    const id = await repo.create(batch.id, 'ch-1', 'gpt-upstream');
    const at = Date.now() + 10_000;
    const [one, two] = await Promise.all([repo.claimDue('one', 5_000, 100, at), repo.claimDue('two', 5_000, 100, at)]);
    const holders = [...one, ...two].filter((delegation) => delegation.id === id);
    expect(holders).toHaveLength(1);
    // The other instance cannot write over it, and takes it once the lease ran out.
    const loser = one.some((delegation) => delegation.id === id) ? 'two' : 'one';
    expect(await repo.update(holders[0], loser, { state: 'done' }, true)).toBeUndefined();
    expect((await repo.claimDue(loser, 5_000, 100, at + 6_000)).map((delegation) => delegation.id)).toContain(id);
  });

  it.skipIf(skip)('hands the lines an expired upstream batch left back to the local runner', async () => {
    const { batch, batches, lines, repo } = await seeded(2);
    const id = await repo.create(batch.id, 'ch-1', 'gpt-upstream');
    await repo.assign(id, batch.id, [0, 1]);
    const deps = { repo, batches, host: host([]), owner: 'me', logger: pino({ level: 'silent' }), pollMs: 1 };
    fake.expire = true;
    try {
      for (let state = 'preparing'; state !== 'done'; ) {
        const [claimed] = await repo.claimDue('me', 5_000, 10, Date.now() + 10_000);
        state = (await repo.update(claimed!, 'me', await stepDelegation(deps, claimed!), true))!.state;
      }
    } finally {
      fake.expire = false;
    }
    // Back to the local runner, counted as tried so no plan hands them over again.
    expect((await lines.claim(batch.id, 'local', 1_000, 10)).map((line) => [line.index, line.attempt])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(await repo.undelegated(batch.id, -1, 10)).toEqual([]);
  });
});
