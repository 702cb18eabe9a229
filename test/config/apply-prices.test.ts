/**
 * The config file's prices in the store, on SQLite and PostgreSQL: stored as
 * the file's, applied again only when the file changes a model's price (so
 * an operator's change or deletion survives restarts), removed when the file
 * stops pricing a model unless an operator set it since, and never touching
 * prices the file does not declare. Instances applying together store each
 * price once.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile, configOwnedFields } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { readStoredPrices } from '../../src/billing/stored-prices.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { createTestDatabase, engines, type TestDatabase } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

const file = (prices: Record<string, unknown>) => parseConfigText(JSON.stringify({ prices }), 'json');

describe.each(engines)('the config file’s prices on $engine', ({ engine, skip }) => {
  let database: TestDatabase;
  const stores: Store[] = [];
  let secrets: SecretBox;

  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase(engine);
    for (let i = 0; i < 3; i++) stores.push(await database.open());
    secrets = await SecretBox.open(database.dataDir);
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await database?.destroy();
  });

  const apply = (prices: Record<string, unknown>, store = stores[0]) => applyConfigFile(store, secrets, file(prices), hashKey);
  /** `model: source input` for every stored price, sorted. */
  const stored = async () =>
    readStoredPrices(await stores[0].prices.list())
      .entries.map((entry) => `${entry.model}: ${entry.source} ${entry.price.input ?? '-'}`)
      .sort();

  it.skipIf(skip)('stores each price once when instances apply the same file together', async () => {
    await stores[0].prices.put('admin-only', { input: 9 }, 'admin');
    const results = await Promise.all(stores.map((store) => apply({ 'claude-*': { input: 3, output: 15 }, '*': { input: 1 } }, store)));
    // Under the cluster lock on PostgreSQL; SQLite (one host) has none, so its instances may each count a write of the same value.
    const writes = results.reduce((sum, result) => sum + result.prices, 0);
    if (engine === 'postgres') expect(writes).toBe(2);
    else expect(writes).toBeGreaterThanOrEqual(2);
    expect(await stored()).toEqual(['*: config 1', 'admin-only: admin 9', 'claude-*: config 3']);
    expect((await configOwnedFields(stores[0])).prices).toEqual({ 'claude-*': ['price'], '*': ['price'] });
  });

  it.skipIf(skip)('an unchanged file changes nothing, not even the update time', async () => {
    const before = await stores[0].prices.list();
    expect((await apply({ '*': { input: 1 }, 'claude-*': { output: 15, input: 3 } }, stores[1])).prices).toBe(0);
    expect(await stores[0].prices.list()).toEqual(before);
  });

  it.skipIf(skip)('keeps an operator’s change or deletion until the file changes that model’s price', async () => {
    await stores[0].prices.put('claude-*', { input: 4, output: 20 }, 'admin');
    await stores[0].prices.delete('*');
    expect((await apply({ 'claude-*': { input: 3, output: 15 }, '*': { input: 1 } }, stores[2])).prices).toBe(0);
    expect(await stored()).toEqual(['admin-only: admin 9', 'claude-*: admin 4']);

    // The file changes claude-*: its price is applied again, as the file's; * stays deleted.
    expect((await apply({ 'claude-*': { input: 5, output: 15 }, '*': { input: 1 } })).prices).toBe(1);
    expect(await stored()).toEqual(['admin-only: admin 9', 'claude-*: config 5']);
  });

  it.skipIf(skip)('a model the file stops pricing loses the file’s price, not an operator’s', async () => {
    // The file now declares admin-only too: the file's price replaces the operator's.
    await apply({ 'claude-*': { input: 5, output: 15 }, '*': { input: 1 }, 'gpt-*': { input: 2 }, 'admin-only': { input: 8 } });
    await stores[0].prices.put('gpt-*', { input: 2.5 }, 'admin');
    expect(await stored()).toEqual(['admin-only: config 8', 'claude-*: config 5', 'gpt-*: admin 2.5']);

    expect((await apply({ '*': { input: 1 } })).prices).toBe(2);
    expect(await stored()).toEqual(['gpt-*: admin 2.5']);
    expect((await configOwnedFields(stores[0])).prices).toEqual({ '*': ['price'] });

    // * was deleted by the operator: it comes back when the file changes it.
    expect((await apply({ '*': { input: 2 } })).prices).toBe(1);
    expect(await stored()).toEqual(['*: config 2', 'gpt-*: admin 2.5']);

    // A file with no prices at all leaves the operator's alone.
    await apply({});
    expect(await stored()).toEqual(['gpt-*: admin 2.5']);
  });
});
