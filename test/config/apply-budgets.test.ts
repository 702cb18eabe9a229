/**
 * The config file's budgets in the store, on SQLite and PostgreSQL: created
 * by name (naming a key or a team by name, a user by email, or any by id), applied again only when the
 * file changes one (an admin change survives restarts), deleted when the file
 * stops declaring one; each write audited as the config file. The file is
 * checked with the one budget schema.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile, configOwnedFields } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { createTestDatabase, engines, type TestDatabase } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');
const KEYS = [{ name: 'team-b', key: 'sk-config-budgets-0001' }];
const OWNERS = { users: [{ email: 'ada@example.com' }], teams: [{ name: 'eng', members: [{ user: 'ada@example.com' }] }] };
const file = (budgets: unknown[]) => parseConfigText(JSON.stringify({ ...OWNERS, keys: KEYS, budgets }), 'json');

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
  const team = { name: 'eng daily', scopeKind: 'team', scopeId: 'eng', tokens: 1000000, period: 'daily' };

  it.skipIf(skip)('creates by name, keeps an admin change until the file changes, deletes what the file drops', async () => {
    expect((await apply([monthly, team])).budgets).toBe(2);
    const key = await store.keys.getByName('team-b');
    const eng = await store.teams.getByName('eng');
    // Created in one apply, possibly in the same millisecond: listed by name here.
    const stored = (await store.budgets.list()).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    expect(stored.map((budget) => [budget.name, budget.scopeKind, budget.scopeId])).toEqual([
      ['b monthly', 'key', key!.id],
      ['eng daily', 'team', eng!.id],
    ]);
    expect(stored[1]).toMatchObject({ timeZone: 'UTC', amountUsd: null, tokens: 1000000 });
    // The console marks them as the file's.
    expect((await configOwnedFields(store)).budgets).toEqual({ 'b monthly': ['budget'], 'eng daily': ['budget'] });

    await store.budgets.update(stored[0]!.id, { amountUsd: 80 });
    expect((await apply([monthly, team])).budgets).toBe(0);
    expect((await store.budgets.get(stored[0]!.id))?.amountUsd).toBe(80);

    expect((await apply([{ ...monthly, amountUsd: 60 }])).budgets).toBe(2);
    expect((await store.budgets.list()).map((budget) => [budget.name, budget.amountUsd])).toEqual([['b monthly', 60]]);
    const actions = (await store.audit.query({ targetKind: 'budget', limit: 10 })).map((entry) => `${entry.actorKind} ${entry.action}`);
    expect(actions).toEqual(['config-file budget.delete', 'config-file budget.update', 'config-file budget.create', 'config-file budget.create']);
  });

  it.skipIf(skip)('names a team by name and a user by email, ids still working, and names the budget whose scope does not exist', async () => {
    const ada = await store.users.getByEmail('ada@example.com');
    const eng = await store.teams.getByName('eng');
    const byName = [
      { name: 'ada monthly', scopeKind: 'user', scopeId: 'Ada@Example.com', amountUsd: 5, period: 'monthly' },
      { name: 'eng weekly', scopeKind: 'team', scopeId: 'eng', amountUsd: 20, period: 'weekly' },
    ];
    await apply(byName);
    const scopes = async () => Object.fromEntries((await store.budgets.list()).map((budget) => [budget.name, `${budget.scopeKind} ${budget.scopeId}`]));
    expect(await scopes()).toEqual({ 'ada monthly': `user ${ada!.id}`, 'eng weekly': `team ${eng!.id}` });
    // The same scopes by id: nothing moves.
    const byId = [
      { ...byName[0], scopeId: ada!.id },
      { ...byName[1], scopeId: eng!.id },
    ];
    await apply(byId);
    expect(await scopes()).toEqual({ 'ada monthly': `user ${ada!.id}`, 'eng weekly': `team ${eng!.id}` });

    await expect(apply([...byId, { ...byName[1], name: 'ops weekly', scopeId: 'ops' }])).rejects.toThrow('config budgets "ops weekly": scopeId: no team named or with id "ops" (declare it in teams)');
    await expect(apply([...byId, { ...byName[0], name: 'bob monthly', scopeId: 'bob@example.com' }])).rejects.toThrow(
      'config budgets "bob monthly": scopeId: no user with email or id "bob@example.com" (declare it in users)',
    );
    await expect(apply([...byId, { ...byName[0], name: 'k', scopeKind: 'key', scopeId: 'nope' }])).rejects.toThrow('config budgets "k": scopeId: no key named or with id "nope"');
    // A refused file writes none of its budgets.
    expect(Object.keys(await scopes()).sort()).toEqual(['ada monthly', 'eng weekly']);
  });

  it.skipIf(skip)('refuses a file with a budget without a limit, a bad zone, or two of one name', () => {
    expect(() => file([{ ...team, tokens: undefined }])).toThrow(/budgets\[0\]\.amountUsd: a budget needs amountUsd, tokens or both/);
    expect(() => file([{ ...team, timeZone: 'Nowhere/Land' }])).toThrow(/budgets\[0\]\.timeZone: must be an IANA time zone/);
    expect(() => file([team, team])).toThrow(/budgets\[1\]\.name: duplicate/);
  });
});
