import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

const original = parseConfigText(
  `
channels:
  - name: primary
    type: anthropic
    baseUrl: https://api.example.com
    apiKey: [sk-up-1, sk-up-2]
    models: ["*"]
    modelMapping: { fast: haiku }
    settings: { defaultMaxTokens: 1, betas: { deny: ['x', 'y'] } }
  - name: sim
    type: simulator
keys:
  - name: team
    key: sk-sy-team-secret
    quota: 10
    models: [m-1]
    expiresAt: 2030-01-01T00:00:00Z
`,
  'yaml',
);

describe.each(engines)('applyConfigFile on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  let secrets: SecretBox;
  beforeAll(async () => {
    if (skip) return;
    store = opened.store;
    secrets = await SecretBox.open(opened.database.dataDir);
  });

  it.skipIf(skip)('creates the declared channels and keys, credentials sealed', async () => {
    expect(await applyConfigFile(store, secrets, original, hashKey)).toEqual({ channels: 2, keys: 1, prices: 0, teams: 0, budgets: 0 });

    const primary = (await store.channels.getByName('primary'))!;
    expect(primary).toMatchObject({
      type: 'anthropic',
      baseUrl: 'https://api.example.com',
      models: ['*'],
      modelMapping: { fast: 'haiku' },
      priority: 0,
      weight: 1,
      status: 'enabled',
      settings: { defaultMaxTokens: 1, betas: { deny: ['x', 'y'] } },
    });
    expect(primary.apiKeysEncrypted.join()).not.toContain('sk-up');
    expect(primary.apiKeysEncrypted.map((sealed) => secrets.open(sealed))).toEqual(['sk-up-1', 'sk-up-2']);
    expect(await store.channels.getByName('sim')).toMatchObject({ baseUrl: '', apiKeysEncrypted: [] });

    const team = (await store.keys.getByName('team'))!;
    expect(team).toMatchObject({
      keyHash: hashKey('sk-sy-team-secret'),
      keyPrefix: 'sk-sy-te',
      status: 'active',
      quota: 10,
      models: ['m-1'],
      allowIps: null,
      rpm: null,
      expiresAt: Date.UTC(2030, 0, 1),
    });
  });

  it.skipIf(skip)('changes nothing when the same file is applied again', async () => {
    const before = { channels: await store.channels.list(), keys: await store.keys.list() };
    expect(await applyConfigFile(store, secrets, original, hashKey)).toEqual({ channels: 0, keys: 0, prices: 0, teams: 0, budgets: 0 });
    expect({ channels: await store.channels.list(), keys: await store.keys.list() }).toEqual(before);
  });

  it.skipIf(skip)('updates to the declared values, leaving usage, status and undeclared records alone', async () => {
    const team = (await store.keys.getByName('team'))!;
    await store.keys.addUsed(new Map([[team.id, 2]]));
    await store.keys.update(team.id, { status: 'disabled' });
    const manual = await store.channels.create({
      name: 'manual',
      type: 'simulator',
      baseUrl: '',
      apiKeysEncrypted: [],
      models: ['*'],
    });
    const primaryBefore = (await store.channels.getByName('primary'))!;

    const changed = parseConfigText(
      `
channels:
  - name: primary
    type: anthropic
    baseUrl: https://api.example.com
    apiKey: [sk-up-1, sk-up-2]
    models: ["*"]
    modelMapping: { fast: haiku }
    settings: { betas: { deny: ['x', 'y'] }, defaultMaxTokens: 1 }
    weight: 4
  - name: sim
    type: simulator
    apiKey: sk-sim
keys:
  - name: team
    key: sk-sy-rotated-secret
    rpm: 30
`,
      'yaml',
    );
    expect(await applyConfigFile(store, secrets, changed, hashKey)).toEqual({ channels: 2, keys: 1, prices: 0, teams: 0, budgets: 0 });

    const primary = (await store.channels.getByName('primary'))!;
    expect(primary.weight).toBe(4);
    // Same credentials (settings merely reordered): the sealed values are kept as they were.
    expect(primary.apiKeysEncrypted).toEqual(primaryBefore.apiKeysEncrypted);
    expect(primary.settings).toEqual({ defaultMaxTokens: 1, betas: { deny: ['x', 'y'] } });
    const sim = (await store.channels.getByName('sim'))!;
    expect(sim.apiKeysEncrypted.map((sealed) => secrets.open(sealed))).toEqual(['sk-sim']);

    const rotated = (await store.keys.get(team.id))!;
    expect(rotated).toMatchObject({
      keyHash: hashKey('sk-sy-rotated-secret'),
      keyPrefix: 'sk-sy-ro',
      quota: null,
      models: null,
      expiresAt: null,
      rpm: 30,
      used: 2,
      status: 'disabled',
    });
    expect(await store.channels.get(manual.id)).toEqual(manual);
    expect(await applyConfigFile(store, secrets, changed, hashKey)).toEqual({ channels: 0, keys: 0, prices: 0, teams: 0, budgets: 0 });
  });

  it.skipIf(skip)('re-seals credentials sealed under a key that is no longer available', async () => {
    const otherSecrets = await SecretBox.open(opened.database.dataDir, 'a different key');
    const minimal = parseConfigText('channels: [{ name: sim, type: simulator, apiKey: sk-sim }]', 'yaml');
    expect(await applyConfigFile(store, otherSecrets, minimal, hashKey)).toEqual({ channels: 1, keys: 0, prices: 0, teams: 0, budgets: 0 });
    const sim = (await store.channels.getByName('sim'))!;
    expect(otherSecrets.open(sim.apiKeysEncrypted[0])).toBe('sk-sim');
  });

  it.skipIf(skip)('names the entry when a key secret is already used by another key', async () => {
    await store.keys.create({ name: 'taken', keyHash: hashKey('sk-sy-taken'), keyPrefix: 'sk-sy-ta' });
    const clash = parseConfigText('keys: [{ name: other, key: sk-sy-taken }]', 'yaml');
    await expect(applyConfigFile(store, secrets, clash, hashKey)).rejects.toThrow('config keys[0] "other": a key with this secret already exists');
  });
});
