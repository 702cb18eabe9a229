/**
 * Group commit of stored responses: saves of one tick share a transaction,
 * each save settles only after that transaction committed, and a faulty
 * record fails alone.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from '../../src/storage/group-commit.js';
import { ResponseRepository, type StoredResponse } from '../../src/storage/responses.js';
import { engines, useTestStore } from './engines.js';

function deferred(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('group commit', () => {
  it('releases no caller before its group has committed', async () => {
    const commit = deferred();
    const groups: number[][] = [];
    const committer = new GroupCommit<number>({
      writeGroup: async (items) => {
        groups.push([...items]);
        await commit.promise;
      },
      writeOne: async () => {
        throw new Error('not expected');
      },
    });
    const released: number[] = [];
    const saves = [1, 2, 3].map((n) => committer.add(n).then(() => released.push(n)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(groups).toEqual([[1, 2, 3]]);
    expect(released).toEqual([]);
    commit.release();
    await Promise.all(saves);
    expect(released.sort()).toEqual([1, 2, 3]);
  });

  it('collects what arrives during a commit into the next group', async () => {
    const first = deferred();
    const groups: number[][] = [];
    const committer = new GroupCommit<number>({
      writeGroup: async (items) => {
        groups.push([...items]);
        if (groups.length === 1) await first.promise;
      },
      writeOne: async (item) => {
        groups.push([item]);
        if (groups.length === 1) await first.promise;
      },
    });
    const a = committer.add(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const later = [committer.add(2), committer.add(3), committer.add(4)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(groups).toEqual([[1]]);
    first.release();
    await Promise.all([a, ...later]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it('retries a failed group one by one so only the faulty write fails', async () => {
    const written: number[] = [];
    const committer = new GroupCommit<number>({
      writeGroup: async () => {
        throw new Error('group failed');
      },
      writeOne: async (item) => {
        if (item === 2) throw new Error('bad item');
        written.push(item);
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => committer.add(n)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written).toEqual([1, 3]);
  });
});

function record(id: string): StoredResponse {
  return {
    id,
    keyId: 'key_g',
    previousResponseId: null,
    chain: [],
    response: { id, object: 'response', output: [{ id: `msg_${id}`, type: 'message', content: [] }] },
    input: [{ id: `in_${id}`, type: 'message', role: 'user', content: 'hi' }],
    channelId: null,
    native: false,
    upstreamResponseId: null,
    createdAt: 1_000,
  };
}

describe.each(engines)('stored responses group commit on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let repository: ResponseRepository;
  beforeAll(() => {
    if (!skip) repository = new ResponseRepository(opened.store.db);
  });

  it.skipIf(skip)('writes the saves of one tick in one transaction, each readable once its save resolved', async () => {
    const transaction = vi.spyOn(opened.store.db, 'transaction');
    const ids = Array.from({ length: 20 }, (_, i) => `resp_group_${i}`);
    await Promise.all(
      ids.map(async (id) => {
        await repository.save(record(id));
        // Released only after the commit: a fresh read already sees it.
        expect((await repository.get(id, 'key_g'))?.id).toBe(id);
      }),
    );
    expect(transaction).toHaveBeenCalledTimes(1);
    transaction.mockRestore();
    const found = await repository.findItems(
      ids.map((id) => `in_${id}`),
      'key_g',
    );
    expect(found.size).toBe(ids.length);
  });

  it.skipIf(skip)('fails only the duplicate when one record of a group cannot be stored', async () => {
    await repository.save(record('resp_dup'));
    const results = await Promise.allSettled([repository.save(record('resp_ok_1')), repository.save(record('resp_dup')), repository.save(record('resp_ok_2'))]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await repository.get('resp_ok_2', 'key_g')).toBeDefined();
  });
});
