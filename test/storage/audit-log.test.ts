/**
 * The audit log on both engines: entries written with the change they
 * describe (a rolled-back transaction leaves neither), read back whole,
 * filtered and paged newest first, pruned by age; secrets never stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/storage/audit-types.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from './engines.js';

const cli: AuditActor = { kind: 'cli', id: 'alice', name: 'alice', requestId: null, clientIp: null };
const api: AuditActor = { kind: 'admin-key', id: null, name: 'admin key', requestId: 'req_1', clientIp: '203.0.113.9' };
const SEALED = 'v1.sealed-credential-text-RECOGNISABLE';
const HASH = 'f'.repeat(64);

describe.each(engines)('audit log on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('writes the change and its entry together, and neither when the transaction fails', async () => {
    const created = await store.transaction(async (tx) => {
      const key = await tx.keys.create({ name: 'together', keyHash: HASH, keyPrefix: 'sk-tog12' });
      const entry = await tx.audit.record(api, 'key.create', 'key', null, key);
      return { key, entry };
    });
    expect(await store.audit.get(created.entry.id)).toEqual(created.entry);
    expect(created.entry).toMatchObject({
      actorKind: 'admin-key',
      actorId: null,
      actorName: 'admin key',
      action: 'key.create',
      targetKind: 'key',
      targetId: created.key.id,
      targetName: 'together',
      before: null,
      requestId: 'req_1',
      clientIp: '203.0.113.9',
    });
    expect(created.entry.after).toMatchObject({ id: created.key.id, name: 'together', keyPrefix: 'sk-tog12', remaining: null });
    expect(JSON.stringify(created.entry)).not.toContain(HASH);

    const failing = store.transaction(async (tx) => {
      const key = await tx.keys.create({ name: 'rolled-back', keyHash: 'e'.repeat(64), keyPrefix: 'sk-roll1' });
      await tx.audit.record(cli, 'key.create', 'key', null, key);
      throw new Error('refused after both writes');
    });
    await expect(failing).rejects.toThrow('refused after both writes');
    expect(await store.keys.getByName('rolled-back')).toBeUndefined();
    expect(await store.audit.query({ actorKind: 'cli', actionPrefix: 'key.create' })).toEqual([]);
  });

  it.skipIf(skip)('keeps of a channel only the number of its credentials and whether they were replaced', async () => {
    const before = await store.channels.create({ name: 'sealed', type: 'anthropic', baseUrl: 'https://x.example', apiKeysEncrypted: [SEALED, `${SEALED}-2`], models: ['*'] });
    const after = (await store.channels.update(before.id, { apiKeysEncrypted: [`${SEALED}-3`], weight: 3 }))!;
    const entry = await store.audit.record(cli, 'channel.update', 'channel', before, after);
    expect(entry.before).toMatchObject({ apiKeyCount: 2, weight: 1, enabled: true });
    expect(entry.after).toMatchObject({ apiKeyCount: 1, weight: 3, apiKeysReplaced: true });
    const unchanged = await store.audit.record(cli, 'channel.update', 'channel', after, after);
    expect(unchanged.after).toMatchObject({ apiKeysReplaced: false });
    const text = JSON.stringify(await store.audit.query({ targetId: before.id }));
    expect(text).not.toContain('sealed-credential');
    expect(text).not.toContain('apiKeysEncrypted');
  });

  it.skipIf(skip)('filters by actor, action prefix, target and time, newest first, and pages without gaps', async () => {
    const key = await store.keys.create({ name: 'filtered', keyHash: 'd'.repeat(64), keyPrefix: 'sk-filt1' });
    const actor: AuditActor = { kind: 'config-file', id: 'switchyard.yaml', name: 'config file', requestId: null, clientIp: null };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.audit.record(actor, i % 2 === 0 ? 'key.update' : 'key.disable', 'key', key, key)).id);
    const mine = await store.audit.query({ actorKind: 'config-file', actorId: 'switchyard.yaml' });
    expect(mine.map((entry) => entry.id)).toEqual([...ids].reverse());
    expect((await store.audit.query({ actorKind: 'config-file', actionPrefix: 'key.dis' })).map((entry) => entry.action)).toEqual(['key.disable', 'key.disable']);
    expect(await store.audit.query({ actorKind: 'config-file', actionPrefix: 'key.%' })).toEqual([]);
    expect((await store.audit.query({ targetKind: 'key', targetId: key.id })).length).toBe(5);
    expect(await store.audit.query({ targetKind: 'channel', targetId: key.id })).toEqual([]);
    expect(await store.audit.query({ actorKind: 'config-file', until: mine[4].at })).toEqual([]);
    expect((await store.audit.query({ actorKind: 'config-file', since: mine[0].at })).length).toBeGreaterThanOrEqual(1);

    const seen: string[] = [];
    let after: { createdAt: number; id: string } | undefined;
    for (;;) {
      const page = await store.audit.query({ actorKind: 'config-file', limit: 2, after });
      if (page.length === 0) break;
      seen.push(...page.map((entry) => entry.id));
      const last = page[page.length - 1];
      after = { createdAt: last.at, id: last.id };
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it.skipIf(skip)('records prices and secrets replaced by what can be said of them', async () => {
    const price = await store.prices.put('audit-*', { input: 1, output: 2 }, 'admin');
    const set = await store.audit.record(cli, 'price.set', 'price', null, price);
    expect(set).toMatchObject({ targetKind: 'price', targetId: 'audit-*', targetName: 'audit-*', after: { model: 'audit-*', price: { input: 1, output: 2 }, source: 'admin' } });
    const rotated = await store.audit.record(cli, 'admin-key.rotate', 'admin-key', null, { id: 'admin_key_hash', facts: { takesEffect: 'at the next gateway start' } });
    expect(rotated).toMatchObject({ targetKind: 'admin-key', targetId: 'admin_key_hash', targetName: null, before: null, after: { takesEffect: 'at the next gateway start' } });
  });

  it.skipIf(skip)('prunes entries older than a time, oldest first, a batch at a time', async () => {
    const key = await store.keys.create({ name: 'pruned', keyHash: 'c'.repeat(64), keyPrefix: 'sk-prun1' });
    const actor: AuditActor = { kind: 'cli', id: 'pruner', name: 'pruner', requestId: null, clientIp: null };
    for (let i = 0; i < 3; i++) await store.audit.record(actor, 'key.update', 'key', key, key);
    const total = (await store.audit.query({ limit: 1000 })).length;
    expect(await store.audit.prune({ before: 0, batch: 10 })).toBe(0);
    expect(await store.audit.prune({ before: Date.now() + 1, batch: 2 })).toBe(2);
    expect((await store.audit.query({ limit: 1000 })).length).toBe(total - 2);
    expect(await store.audit.get('no such id\u0000')).toBeUndefined();
  });
});
