/**
 * The config file's apply in the audit log, on both engines: each record it
 * creates, changes or deletes is one entry by `config-file` (its path), the
 * credentials it carries nowhere in them; an unchanged file, or an entry it
 * refuses, records nothing.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');
const PATH = 'deploy/switchyard.yaml';

const file = (weight: number, price: number | undefined, keySecret = 'sk-file-KNOWN-SECRET-01') =>
  parseConfigText(
    JSON.stringify({
      channels: [{ name: 'filed', type: 'anthropic', baseUrl: 'https://up.example', apiKey: 'sk-up-RECOGNISABLE-01', models: ['*'], weight }],
      keys: [{ name: 'filed-key', key: keySecret, quota: 3 }],
      prices: price === undefined ? {} : { 'file-*': { input: price } },
    }),
    'json',
  );

describe.each(engines)('the config file’s changes in the audit log on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  let secrets: SecretBox;
  beforeAll(async () => {
    if (skip) return;
    store = opened.store;
    secrets = await SecretBox.open(opened.database.dataDir);
  });
  const actions = async () => (await store.audit.query({ actorKind: 'config-file' })).map((entry) => `${entry.action} ${entry.targetName}`).reverse();

  it.skipIf(skip)('records what the file creates, changes and deletes, as the file, without its secrets', async () => {
    await applyConfigFile(store, secrets, file(1, 2), hashKey, PATH);
    expect(await actions()).toEqual(['channel.create filed', 'key.create filed-key', 'price.set file-*']);
    await applyConfigFile(store, secrets, file(1, 2), hashKey, PATH);
    expect(await actions()).toHaveLength(3);

    await applyConfigFile(store, secrets, file(5, undefined, 'sk-file-KNOWN-SECRET-02'), hashKey, PATH);
    expect(await actions()).toEqual(['channel.create filed', 'key.create filed-key', 'price.set file-*', 'channel.update filed', 'key.update filed-key', 'price.delete file-*']);
    const entries = await store.audit.query({ actorKind: 'config-file', actorId: PATH });
    expect(entries).toHaveLength(6);
    for (const entry of entries) expect(entry).toMatchObject({ actorName: 'config file', requestId: null, clientIp: null });
    expect(entries.find((entry) => entry.action === 'channel.update')).toMatchObject({ before: { weight: 1 }, after: { weight: 5, apiKeysReplaced: false, apiKeyCount: 1 } });
    const text = JSON.stringify(entries);
    for (const secret of ['sk-up-RECOGNISABLE-01', 'sk-file-KNOWN-SECRET-01', 'sk-file-KNOWN-SECRET-02', hashKey('sk-file-KNOWN-SECRET-02')]) expect(text).not.toContain(secret);
  });

  it.skipIf(skip)('records nothing for an entry it refuses', async () => {
    const before = await actions();
    await store.keys.create({ name: 'taken', keyHash: hashKey('sk-clash-secret-000'), keyPrefix: 'sk-clash' });
    const clash = parseConfigText(JSON.stringify({ keys: [{ name: 'other', key: 'sk-clash-secret-000' }] }), 'json');
    await expect(applyConfigFile(store, secrets, clash, hashKey, PATH)).rejects.toThrow('a key with this secret already exists');
    expect(await actions()).toEqual(before);
  });
});
