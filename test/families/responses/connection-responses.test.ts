/**
 * A WebSocket's view of stored responses: `store: false` turns are kept in
 * memory for the connection and found by id and by item id, ahead of and
 * beside the database; stored turns go to the database; another key never
 * sees them.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionResponses, MAX_KEPT_TURNS } from '../../../src/families/responses/connection-responses.js';
import type { ResponseRepository, StoredResponse } from '../../../src/storage/responses.js';

function record(id: string, store: boolean, keyId = 'key_a'): StoredResponse {
  return {
    id,
    keyId,
    previousResponseId: null,
    chain: [],
    response: { id, store, output: [{ id: `msg_${id}`, type: 'message' }] },
    input: [{ id: `in_${id}`, type: 'message' }],
    channelId: null,
    native: false,
    upstreamResponseId: null,
    createdAt: 0,
  };
}

function sharedRepository() {
  const saved: StoredResponse[] = [];
  const shared = {
    save: async (r: StoredResponse) => void saved.push(r),
    get: async (id: string, keyId: string) => saved.find((r) => r.id === id && r.keyId === keyId),
    getMany: async (ids: readonly string[], keyId: string) => ids.flatMap((id) => saved.filter((r) => r.id === id && r.keyId === keyId)),
    findItems: async (itemIds: readonly string[], keyId: string) =>
      new Map(itemIds.flatMap((itemId) => saved.filter((r) => r.keyId === keyId && r.input.some((i) => i.id === itemId)).map((r) => [itemId, { item: r.input[0]!, record: r }] as const))),
    delete: async () => false,
  } as unknown as ResponseRepository;
  return { shared, saved };
}

describe('ConnectionResponses', () => {
  it('keeps unstored turns for the connection and stores the others', async () => {
    const { shared, saved } = sharedRepository();
    const connection = new ConnectionResponses(undefined as never, shared);
    await connection.save(record('resp_kept', false));
    await connection.save(record('resp_stored', true));
    expect(saved.map((r) => r.id)).toEqual(['resp_stored']);
    expect((await connection.get('resp_kept', 'key_a'))?.id).toBe('resp_kept');
    expect(await connection.get('resp_kept', 'key_b')).toBeUndefined();
    expect((await connection.getMany(['resp_stored', 'resp_kept', 'resp_none'], 'key_a')).map((r) => r.id)).toEqual(['resp_stored', 'resp_kept']);
    const found = await connection.findItems(['msg_resp_kept', 'in_resp_stored'], 'key_a');
    expect(found.get('msg_resp_kept')?.record.id).toBe('resp_kept');
    expect(found.get('in_resp_stored')?.record.id).toBe('resp_stored');
    expect(await connection.delete('resp_kept', 'key_a')).toBe(true);
    expect(await connection.get('resp_kept', 'key_a')).toBeUndefined();
  });

  it('keeps a bounded number of turns, the oldest going first', async () => {
    const connection = new ConnectionResponses(undefined as never, sharedRepository().shared);
    for (let i = 0; i <= MAX_KEPT_TURNS; i++) await connection.save(record(`resp_${i}`, false));
    expect(await connection.get('resp_0', 'key_a')).toBeUndefined();
    expect((await connection.get(`resp_${MAX_KEPT_TURNS}`, 'key_a'))?.id).toBe(`resp_${MAX_KEPT_TURNS}`);
  });
});
