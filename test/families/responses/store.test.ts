/** The stored-response repository on both engines: save, key scoping, chains, item lookup, delete. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ResponseRepository, type StoredResponse } from '../../../src/storage/responses.js';
import { engines, useTestStore } from '../../storage/engines.js';

function record(overrides: Partial<StoredResponse>): StoredResponse {
  return {
    id: 'resp_1',
    keyId: 'key_a',
    previousResponseId: null,
    chain: [],
    response: { id: overrides.id ?? 'resp_1', object: 'response', output: [{ id: 'msg_out_1', type: 'message', content: [] }] },
    input: [{ id: 'msg_in_1', type: 'message', role: 'user', content: 'hi' }],
    channelId: null,
    native: false,
    upstreamResponseId: null,
    createdAt: 1_000,
    ...overrides,
  };
}

describe.each(engines)('stored responses on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let repository: ResponseRepository;
  beforeAll(() => {
    repository = new ResponseRepository(opened.store.db);
  });

  it.skipIf(skip)('saves and reads back every field, for its key only', async () => {
    const saved = record({ id: 'resp_a', channelId: 'ch_1', native: true, upstreamResponseId: 'resp_up', chain: ['resp_x'], previousResponseId: 'resp_x' });
    await repository.save(saved);
    expect(await repository.get('resp_a', 'key_a')).toEqual(saved);
    expect(await repository.get('resp_a', 'key_b')).toBeUndefined();
    expect(await repository.get('resp_missing', 'key_a')).toBeUndefined();
  });

  it.skipIf(skip)('reads a chain in one call, in order, skipping what is missing or another key’s', async () => {
    await repository.save(record({ id: 'resp_c1', createdAt: 1 }));
    await repository.save(record({ id: 'resp_c2', createdAt: 2 }));
    await repository.save(record({ id: 'resp_other', keyId: 'key_b', createdAt: 3 }));
    const chain = await repository.getMany(['resp_c2', 'resp_gone', 'resp_other', 'resp_c1'], 'key_a');
    expect(chain.map((found) => found.id)).toEqual(['resp_c2', 'resp_c1']);
  });

  it.skipIf(skip)('finds items by id, the newest record winning, scoped to the key', async () => {
    await repository.save(record({ id: 'resp_i1', createdAt: 10, input: [{ id: 'shared', type: 'message', role: 'user', content: 'old' }] }));
    await repository.save(
      record({
        id: 'resp_i2',
        createdAt: 20,
        input: [
          { id: 'shared', type: 'message', role: 'user', content: 'new' },
          { id: 'shared', type: 'message', role: 'user', content: 'dup' },
        ],
      }),
    );
    const found = await repository.findItems(['shared', 'msg_out_1', 'nowhere'], 'key_a');
    expect(found.get('shared')?.item.content).toBe('new');
    expect(found.get('shared')?.record.id).toBe('resp_i2');
    expect(found.get('msg_out_1')?.item.type).toBe('message');
    expect(found.has('nowhere')).toBe(false);
    expect((await repository.findItems(['shared'], 'key_b')).size).toBe(0);
  });

  it.skipIf(skip)('deletes a record and its item index, for its key only', async () => {
    await repository.save(record({ id: 'resp_d', input: [{ id: 'only_here', type: 'message', role: 'user', content: 'x' }] }));
    expect(await repository.delete('resp_d', 'key_b')).toBe(false);
    expect(await repository.delete('resp_d', 'key_a')).toBe(true);
    expect(await repository.get('resp_d', 'key_a')).toBeUndefined();
    expect((await repository.findItems(['only_here'], 'key_a')).size).toBe(0);
    expect(await repository.delete('resp_d', 'key_a')).toBe(false);
  });

  it.skipIf(skip)('handles long chains and many items past one query’s parameter list', async () => {
    const ids = Array.from({ length: 1200 }, (_, i) => `resp_long_${i}`);
    const input = Array.from({ length: 700 }, (_, i) => ({ id: `item_${i}`, type: 'message', role: 'user', content: String(i) }));
    await repository.save(record({ id: 'resp_long_0', input }));
    const chain = await repository.getMany(ids, 'key_a');
    expect(chain.map((found) => found.id)).toEqual(['resp_long_0']);
    const found = await repository.findItems(
      input.map((item) => item.id),
      'key_a',
    );
    expect(found.size).toBe(700);
  });
});
