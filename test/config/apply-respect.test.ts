/**
 * The config file as replicas see it: many instances applying the same file
 * at once all start, an unchanged file changes nothing, and what an operator
 * changed through the admin API survives restarts until the file itself
 * changes that field.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLIED_SETTING, applyConfigFile } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { createTestDatabase, engines, type TestDatabase } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

function file(weight = 1, enabled = true) {
  return parseConfigText(
    `
channels:
  - name: igp
    type: simulator
    apiKey: sk-upstream-secret
    weight: ${weight}
    enabled: ${enabled}
  - name: second
    type: simulator
keys:
  - name: team
    key: sk-sy-team-secret
    rpm: 10
`,
    'yaml',
  );
}

describe.each(engines)('config file applied by replicas on $engine', ({ engine, skip }) => {
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

  it.skipIf(skip)('three instances applying the same file to a fresh database all succeed, creating each record once', async () => {
    const results = await Promise.all(stores.map((store) => applyConfigFile(store, secrets, file(), hashKey)));
    expect(results.reduce((sum, result) => sum + result.channels, 0)).toBe(2);
    expect(results.reduce((sum, result) => sum + result.keys, 0)).toBe(1);
    expect((await stores[0].channels.list()).map((channel) => channel.name).sort()).toEqual(['igp', 'second']);
    // What the file owns is recorded by fingerprint, never the credentials themselves.
    const applied = (await stores[0].settings.get(APPLIED_SETTING))!;
    expect(applied).not.toContain('sk-upstream-secret');
    expect(applied).not.toContain('sk-sy-team-secret');
  });

  it.skipIf(skip)('an unchanged file changes nothing, not even the update time', async () => {
    const before = await stores[0].channels.list();
    expect(await applyConfigFile(stores[1], secrets, file(), hashKey)).toEqual({ channels: 0, keys: 0, prices: 0, teams: 0, budgets: 0 });
    expect(await stores[0].channels.list()).toEqual(before);
  });

  it.skipIf(skip)('a restart keeps the operator’s changes; a field the file changes is applied', async () => {
    const igp = (await stores[0].channels.getByName('igp'))!;
    await stores[0].channels.update(igp.id, { status: 'disabled', priority: 7 });
    const second = (await stores[0].channels.getByName('second'))!;
    await stores[0].channels.delete(second.id);
    const team = (await stores[0].keys.getByName('team'))!;
    await stores[0].keys.update(team.id, { rpm: 99 });

    // Restarts with the same file: nothing the operator did is undone.
    expect(await applyConfigFile(stores[2], secrets, file(), hashKey)).toEqual({ channels: 0, keys: 0, prices: 0, teams: 0, budgets: 0 });
    expect(await stores[0].channels.getByName('igp')).toMatchObject({ status: 'disabled', priority: 7, weight: 1 });
    expect(await stores[0].channels.getByName('second')).toBeUndefined();
    expect((await stores[0].keys.getByName('team'))!.rpm).toBe(99);

    // The file changes the weight: the weight is applied, the operator's status and priority stay.
    expect(await applyConfigFile(stores[1], secrets, file(5), hashKey)).toEqual({ channels: 1, keys: 0, prices: 0, teams: 0, budgets: 0 });
    expect(await stores[0].channels.getByName('igp')).toMatchObject({ status: 'disabled', priority: 7, weight: 5 });
    expect(await stores[0].channels.getByName('second')).toBeUndefined();

    // The file itself now disables, then enables again: its change of `enabled` is applied.
    await applyConfigFile(stores[1], secrets, file(5, false), hashKey);
    await applyConfigFile(stores[1], secrets, file(5, true), hashKey);
    expect((await stores[0].channels.getByName('igp'))!.status).toBe('enabled');
  });
});
