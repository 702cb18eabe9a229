import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from './engines.js';

describe.each(engines)('keys and channels on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('reports its engine and answers ping', async () => {
    expect(store.engine).toBe(engine);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it.skipIf(skip)('creates, reads and updates keys', async () => {
    const created = await store.keys.create({ name: 'alice', keyHash: 'hash-a', keyPrefix: 'sk-alice' });
    expect(created.id).toMatch(/^key_[0-9A-Za-z]{20}$/);
    expect(created).toMatchObject({
      name: 'alice',
      keyHash: 'hash-a',
      keyPrefix: 'sk-alice',
      status: 'active',
      expiresAt: null,
      quota: null,
      used: 0,
      models: null,
      allowIps: null,
      rpm: null,
      tpm: null,
    });
    expect(typeof created.createdAt).toBe('number');
    expect(created.updatedAt).toBe(created.createdAt);

    // The list is in creation order, ties broken by id: two keys made in the
    // same millisecond come back in id order, so the second waits a tick.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const full = await store.keys.create({
      name: 'bob',
      keyHash: 'hash-b',
      keyPrefix: 'sk-bob12',
      status: 'disabled',
      expiresAt: 1_900_000_000_000,
      quota: 12.5,
      models: ['m-1', 'm-2'],
      allowIps: ['10.0.0.0/8'],
      rpm: 60,
      tpm: 100_000,
    });
    expect(await store.keys.get(full.id)).toEqual(full);
    expect(await store.keys.getByName('bob')).toEqual(full);
    expect(await store.keys.getByHash('hash-b')).toEqual(full);
    expect(await store.keys.get('key_missing')).toBeUndefined();
    expect(await store.keys.getByHash('nope')).toBeUndefined();

    const updated = await store.keys.update(full.id, { quota: null, models: null, status: 'active', rpm: 30 });
    expect(updated).toMatchObject({ quota: null, models: null, status: 'active', rpm: 30, tpm: 100_000 });
    expect(updated!.updatedAt).toBeGreaterThanOrEqual(full.updatedAt);
    expect(await store.keys.update('key_missing', { rpm: 1 })).toBeUndefined();

    expect((await store.keys.list()).map((k) => k.name)).toEqual(['alice', 'bob']);
    expect(await store.keys.count()).toBe(2);
  });

  it.skipIf(skip)('refuses a duplicate key name or secret with a 409', async () => {
    const dup = store.keys.create({ name: 'alice', keyHash: 'hash-other', keyPrefix: 'x' });
    await expect(dup).rejects.toBeInstanceOf(GatewayError);
    await expect(dup).rejects.toMatchObject({ status: 409, message: 'a key named "alice" already exists' });
    await expect(store.keys.create({ name: 'carol', keyHash: 'hash-a', keyPrefix: 'x' })).rejects.toMatchObject({
      status: 409,
      message: 'a key with this secret already exists',
    });
  });

  it.skipIf(skip)('adds spent amounts to many keys at once', async () => {
    const alice = (await store.keys.getByName('alice'))!;
    const bob = (await store.keys.getByName('bob'))!;
    await store.keys.addUsed(
      new Map([
        [alice.id, 0.25],
        [bob.id, 1.5],
        ['key_unknown', 3],
      ]),
    );
    await store.keys.addUsed(new Map([[alice.id, 0.5]]));
    await store.keys.addUsed(new Map());
    expect((await store.keys.get(alice.id))!.used).toBeCloseTo(0.75, 10);
    expect((await store.keys.get(bob.id))!.used).toBeCloseTo(1.5, 10);
  });

  it.skipIf(skip)('adds spent amounts beyond one statement in a single batch', async () => {
    // Seeded in one statement: creating a thousand keys one by one would dominate the test.
    const now = Date.now();
    const ids = Array.from({ length: 1001 }, (_, i) => `key_bulk${i}`);
    await store.db
      .insertInto('keys')
      .values(
        ids.map((id, i) => ({
          id,
          name: `bulk-${i}`,
          key_hash: `bulk-hash-${i}`,
          key_prefix: 'bulk',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const amounts = new Map(ids.map((id, i) => [id, i / 100]));
    await store.keys.addUsed(amounts);
    const byId = new Map((await store.keys.list()).map((k) => [k.id, k.used]));
    for (const [id, amount] of amounts) expect(byId.get(id)).toBeCloseTo(amount, 10);
  });

  it.skipIf(skip)('creates, reads, updates and deletes channels', async () => {
    const created = await store.channels.create({
      name: 'primary',
      type: 'anthropic',
      baseUrl: 'https://api.example.com',
      apiKeysEncrypted: ['v1:a:b:c'],
      models: ['claude-*'],
    });
    expect(created.id).toMatch(/^ch_[0-9A-Za-z]{20}$/);
    expect(created).toMatchObject({
      modelMapping: {},
      priority: 0,
      weight: 1,
      status: 'enabled',
      settings: {},
    });
    // The list is in creation order by time; two creates within one millisecond would fall back to id order.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = await store.channels.create({
      name: 'backup',
      type: 'openai-chat',
      baseUrl: 'https://other.example.com/v1',
      apiKeysEncrypted: [],
      models: ['*'],
      modelMapping: { 'gpt-x': 'gpt-4o' },
      priority: 5,
      weight: 3,
      status: 'disabled',
      settings: { region: 'eu', nested: { a: [1, 2] } },
    });
    expect(await store.channels.get(second.id)).toEqual(second);
    expect(await store.channels.getByName('backup')).toEqual(second);
    expect(second.settings).toEqual({ region: 'eu', nested: { a: [1, 2] } });

    const updated = await store.channels.update(created.id, { weight: 7, status: 'disabled', apiKeysEncrypted: [] });
    expect(updated).toMatchObject({ weight: 7, status: 'disabled', apiKeysEncrypted: [], type: 'anthropic' });
    expect(await store.channels.update('ch_missing', { weight: 1 })).toBeUndefined();
    await expect(store.channels.update(second.id, { name: 'primary' })).rejects.toMatchObject({ status: 409 });

    expect((await store.channels.list()).map((c) => c.name)).toEqual(['primary', 'backup']);
    expect(await store.channels.count()).toBe(2);
    expect(await store.channels.delete(created.id)).toBe(true);
    expect(await store.channels.delete(created.id)).toBe(false);
    expect(await store.channels.get(created.id)).toBeUndefined();
    expect(await store.channels.count()).toBe(1);
  });
});
