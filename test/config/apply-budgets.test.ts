/**
 * The config file's budgets in the store, on SQLite and PostgreSQL: created
 * by name (a key budget naming its key by name), applied again only when the
 * file changes one (an admin change survives restarts), deleted when the file
 * stops declaring one; each write audited as the config file. The file is
 * checked with the one budget schema.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { createTestDatabase, engines, type TestDatabase } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');
const KEYS = [{ name: 'team-b', key: 'sk-config-budgets-0001' }];
const file = (budgets: unknown[]) => parseConfigText(JSON.stringify({ keys: KEYS, budgets }), 'json');

describe.each(engines)('the config file’s budgets on $engine', ({ engine, skip }) => {
  let database: TestDatabase;
  let store: Store;
  let secrets: SecretBox;

  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase(engine);
    store = await database.open();
    secrets = await SecretBox.open(database.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await database?.destroy();
  });

  const apply = (budgets: unknown[]) => applyConfigFile(store, secrets, file(budgets), hashKey, 'gateway.yaml');
  const monthly = { name: 'b monthly', scopeKind: 'key', scopeId: 'team-b', amountUsd: 50, period: 'monthly', timeZone: 'Europe/Berlin' };
  const team = { name: 'eng daily', scopeKind: 'team', scopeId: 'team_eng', tokens: 1000000, period: 'daily' };

  it.skipIf(skip)('creates by name, keeps an admin change until the file changes, deletes what the file drops', async () => {
    expect((await apply([monthly, team])).budgets).toBe(2);
    const key = await store.keys.getByName('team-b');
    // Created in one apply, possibly in the same millisecond: listed by name here.
    const stored = (await store.budgets.list()).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    expect(stored.map((budget) => [budget.name, budget.scopeKind, budget.scopeId])).toEqual([
      ['b monthly', 'key', key!.id],
      ['eng daily', 'team', 'team_eng'],
    ]);
    expect(stored[1]).toMatchObject({ timeZone: 'UTC', amountUsd: null, tokens: 1000000 });

    await store.budgets.update(stored[0]!.id, { amountUsd: 80 });
    expect((await apply([monthly, team])).budgets).toBe(0);
    expect((await store.budgets.get(stored[0]!.id))?.amountUsd).toBe(80);

    expect((await apply([{ ...monthly, amountUsd: 60 }])).budgets).toBe(2);
    expect((await store.budgets.list()).map((budget) => [budget.name, budget.amountUsd])).toEqual([['b monthly', 60]]);
    const actions = (await store.audit.query({ targetKind: 'budget', limit: 10 })).map((entry) => `${entry.actorKind} ${entry.action}`);
    expect(actions).toEqual(['config-file budget.delete', 'config-file budget.update', 'config-file budget.create', 'config-file budget.create']);
  });

  it.skipIf(skip)('refuses a file with a budget without a limit, a bad zone, or two of one name', () => {
    expect(() => file([{ ...team, tokens: undefined }])).toThrow(/budgets\[0\]\.amountUsd: a budget needs amountUsd, tokens or both/);
    expect(() => file([{ ...team, timeZone: 'Nowhere/Land' }])).toThrow(/budgets\[0\]\.timeZone: must be an IANA time zone/);
    expect(() => file([team, team])).toThrow(/budgets\[1\]\.name: duplicate/);
  });
});
