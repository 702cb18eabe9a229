/**
 * One secret key per store, and one bad sealed record is one bad channel.
 * The CLI refuses to seal with another key than the store's; a data
 * directory restored without its secret.key starts with the channels it
 * sealed broken (named once in the log, in the admin API and in /readyz)
 * while everything else serves; a hand-corrupted value breaks its channel
 * only and refreshes go on; `secret-key rotate` seals everything again and
 * the gateway serves with the new key. On SQLite and PostgreSQL.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { SecretBox } from '../../src/storage/secrets.js';
import { SECRET_KEY_FINGERPRINT_SETTING } from '../../src/storage/store-secrets.js';
import { postgresUrl } from '../storage/engines.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { jsonReply } from '../upstreams/support/fixtures.js';

const UPSTREAM_KEY = 'sk-upstream-sealed-0001';
const CLIENT_KEY = 'sk-client-secrets-0001';
const config = { keys: [{ name: 'client', key: CLIENT_KEY }] };
const UNUSABLE = 'stored channel is unusable; it serves nothing until fixed';

let upstream: FakeUpstream;
beforeAll(async () => {
  // Answers only when the gateway sends the credential as it was given: proof that it was opened right.
  upstream = await startFakeUpstream((request) =>
    request.headers.authorization === `Bearer ${UPSTREAM_KEY}`
      ? jsonReply('openai-chat', 'openai-text.json')
      : { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"bad key"}}' },
  );
});
afterAll(async () => {
  await upstream?.close();
});

function logSink(): { logger: Logger; lines: () => Array<Record<string, any>> } {
  const lines: string[] = [];
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines: () => lines.map((line) => JSON.parse(line)) };
}

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ out: any; err: string }> {
  let out = '';
  let err = '';
  await runCli(args, { env, stdout: (text) => (out += text), stderr: (text) => (err += text) });
  return { out: JSON.parse(out), err };
}

describe.each(ENGINES)('the secret key on %s', (engine) => {
  let place: Place;
  let running: TestGateway[] = [];
  beforeEach(async () => {
    place = await createPlace(engine);
  });
  afterEach(async () => {
    for (const gw of running) await gw.close();
    running = [];
    await place.destroy();
  });

  const start = async (options: { logger?: Logger; secretKey?: string } = {}) => {
    const gw = await place.start({ config, logger: options.logger, settings: { simulator: false, secretKey: options.secretKey } });
    running.push(gw);
    return gw;
  };
  const stop = async (gw: TestGateway) => {
    running = running.filter((other) => other !== gw);
    await gw.close();
  };
  /** The CLI's environment for this place's storage. */
  const placeEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    SWITCHYARD_DATA_DIR: place.dataDir,
    ...(place.schema ? { SWITCHYARD_DATABASE_URL: postgresUrl, SWITCHYARD_DATABASE_SCHEMA: place.schema } : {}),
    ...extra,
  });
  const ask = (gw: TestGateway, model: string) =>
    fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CLIENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const addChannels = async (gw: TestGateway) => {
    const locked = { name: 'locked', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: UPSTREAM_KEY, models: ['locked-model'] };
    expect((await gw.admin('POST', '/channels', locked)).status).toBe(201);
    expect((await gw.admin('POST', '/channels', { name: 'open', type: 'simulator', models: ['open-model'] })).status).toBe(201);
  };
  const channel = async (gw: TestGateway, name: string) => (await gw.admin('GET', '/channels')).body.data.find((row: any) => row.name === name);
  const channelNames = async () => {
    const store = await place.openStore();
    try {
      return (await store.channels.list()).map((record) => record.name);
    } finally {
      await store.close();
    }
  };

  it("the CLI refuses to seal with a key other than the store's, and writes nothing", async () => {
    const gw = await start();
    await addChannels(gw);
    const attempt = (env: NodeJS.ProcessEnv, extra: string[] = []) =>
      cli([...extra, 'channels', 'add', '--name', 'sneaky', '--type', 'openai-chat', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-sneaky', '--models', 'sneaky-*'], env);

    await expect(attempt(placeEnv({ SWITCHYARD_SECRET_KEY: 'not the gateway key at all' }))).rejects.toThrow(
      /upstream credentials cannot be stored now, nothing was written: the secret key is not the one these credentials were sealed with/,
    );
    if (place.schema) {
      // The reported case: the same database, the CLI run with another data directory.
      const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'switchyard-elsewhere-'));
      try {
        await expect(attempt(placeEnv(), ['--data-dir', elsewhere])).rejects.toThrow(/the secret key is missing/);
        expect(existsSync(path.join(elsewhere, 'secret.key'))).toBe(false);
        await SecretBox.open(elsewhere);
        await expect(attempt(placeEnv(), ['--data-dir', elsewhere])).rejects.toThrow(/not the one these credentials were sealed with/);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    }
    expect(await channelNames()).toEqual(['locked', 'open']);

    // With the gateway's own key the same command works, and the running gateway serves the channel.
    const { out } = await attempt(placeEnv());
    expect(out).toMatchObject({ name: 'sneaky', apiKeyCount: 1 });
    await gw.gateway.ctx.channels.refresh();
    expect((await channel(gw, 'sneaky')).problem).toBeNull();
    expect((await ask(gw, 'locked-model')).status).toBe(200);
  });

  it('a data directory restored without its secret.key starts, with only the sealed channels broken', async () => {
    const first = await start();
    await addChannels(first);
    await stop(first);
    const keyFile = path.join(place.dataDir, 'secret.key');
    const keyText = await readFile(keyFile, 'utf8');
    await unlink(keyFile);

    const { logger, lines } = logSink();
    const gw = await start({ logger });
    expect(existsSync(keyFile)).toBe(false);
    const keyErrors = lines().filter((line) => String(line.msg).startsWith('secret key: the secret key is missing'));
    expect(keyErrors).toHaveLength(1);
    expect(keyErrors[0].msg).toMatch(/Restore secret\.key .* or set SWITCHYARD_SECRET_KEY/);
    expect(
      lines()
        .filter((line) => line.msg === UNUSABLE)
        .map((line) => line.channel),
    ).toEqual(['locked']);

    const locked = await channel(gw, 'locked');
    expect(locked.problem).toMatch(/^apiKey: the secret key is missing: restore secret\.key in the data directory, or set SWITCHYARD_SECRET_KEY$/);
    expect((await channel(gw, 'open')).problem).toBeNull();
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as any).brokenChannels).toEqual([{ name: 'locked', problem: locked.problem }]);

    expect((await ask(gw, 'open-model')).status).toBe(200);
    expect((await ask(gw, 'locked-model')).status).not.toBe(200);
    expect(upstream.requests.filter((request) => request.headers.authorization !== `Bearer ${UPSTREAM_KEY}`)).toEqual([]);

    // A write that needs sealing is refused before anything is written; one that needs none works.
    const refused = await gw.admin('POST', '/channels', { name: 'new', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-new', models: ['new-model'] });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual({ type: 'unavailable', message: expect.stringMatching(/^upstream credentials cannot be stored now, nothing was written: the secret key is missing/) });
    expect((await gw.admin('PATCH', `/channels/${locked.id}`, { apiKey: 'sk-other' })).status).toBe(503);
    const tested = await gw.admin('POST', `/channels/${locked.id}/test`, {});
    expect(tested.status).toBe(409);
    expect(tested.body.error.message).toMatch(/^this channel cannot be tested: apiKey: the secret key is missing/);
    expect((await gw.admin('POST', '/channels', { name: 'plain', type: 'simulator', models: ['plain-model'] })).status).toBe(201);
    expect(await channelNames()).toEqual(['locked', 'open', 'plain']);
    expect((await gw.admin('POST', '/keys', { name: 'more' })).status).toBe(201);

    // Refreshes go on without naming the channel again; the key restored is picked up without a restart.
    await gw.gateway.ctx.channels.refresh();
    expect(lines().filter((line) => line.msg === UNUSABLE)).toHaveLength(1);
    await writeFile(keyFile, keyText, { mode: 0o600 });
    await gw.gateway.ctx.channels.refresh();
    expect((await channel(gw, 'locked')).problem).toBeNull();
    expect((await ask(gw, 'locked-model')).status).toBe(200);
  });

  it('a hand-corrupted sealed value breaks its channel only; refreshes, writes and restarts go on', async () => {
    const { logger, lines } = logSink();
    const gw = await start({ logger });
    await addChannels(gw);
    const store = await place.openStore();
    try {
      const record = (await store.channels.getByName('locked'))!;
      const [version, iv, tag, ciphertext] = record.apiKeysEncrypted[0].split(':');
      const altered = Buffer.from(ciphertext, 'base64');
      altered[0] ^= 1;
      await store.channels.update(record.id, { apiKeysEncrypted: [[version, iv, tag, altered.toString('base64')].join(':')] });
    } finally {
      await store.close();
    }

    await gw.gateway.ctx.channels.refresh();
    await gw.gateway.ctx.channels.refresh();
    expect(
      lines()
        .filter((line) => line.msg === UNUSABLE)
        .map((line) => line.channel),
    ).toEqual(['locked']);
    expect((await channel(gw, 'locked')).problem).toBe('apiKey: sealed secret could not be opened: wrong secret key or altered data');
    expect((await ask(gw, 'open-model')).status).toBe(200);

    // A write through the admin API answers as it went (it used to answer 500 with the row written).
    const added = await gw.admin('POST', '/channels', { name: 'second', type: 'simulator', models: ['second-model'] });
    expect(added.status).toBe(201);
    expect(added.body.problem).toBeNull();
    // A change made by the CLI is seen at the next refresh.
    await cli(['channels', 'add', '--name', 'later', '--type', 'openai-chat', '--base-url', `${upstream.origin}/v1`, '--api-key', UPSTREAM_KEY, '--models', 'later-model'], placeEnv());
    await gw.gateway.ctx.channels.refresh();
    expect((await ask(gw, 'later-model')).status).toBe(200);

    await stop(gw);
    const again = await start();
    expect((await channel(again, 'locked')).problem).toMatch(/altered data/);
    expect((await ask(again, 'later-model')).status).toBe(200);
    expect(((await (await fetch(`${again.url}/readyz`)).json()) as any).brokenChannels.map((entry: any) => entry.name)).toEqual(['locked']);
  });

  it('a store sealed before fingerprints were kept adopts the key that opens it, and no other', async () => {
    const first = await start();
    await addChannels(first);
    await stop(first);
    const store = await place.openStore();
    try {
      await store.db.deleteFrom('settings').where('name', '=', SECRET_KEY_FINGERPRINT_SETTING).execute();
      await expect(cli(['channels', 'add', '--name', 'x', '--type', 'simulator', '--api-key', 'sk-x'], placeEnv({ SWITCHYARD_SECRET_KEY: 'not the gateway key at all' }))).rejects.toThrow(
        /not the one these credentials were sealed with/,
      );
      expect(await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING)).toBeUndefined();
      const gw = await start();
      expect(await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING)).toMatch(/^[0-9a-f]{32}$/);
      expect((await ask(gw, 'locked-model')).status).toBe(200);
    } finally {
      await store.close();
    }
  });

  it('secret-key rotate seals everything again; a running instance reading secret.key serves with the new key', async () => {
    const gw = await start();
    await addChannels(gw);
    const keyFile = path.join(place.dataDir, 'secret.key');
    const before = await readFile(keyFile, 'utf8');

    const { out } = await cli(['secret-key', 'rotate'], placeEnv());
    expect(out).toMatchObject({ resealed: 1, forgotten: [], keyFile });
    expect(await readFile(keyFile, 'utf8')).not.toBe(before);
    expect(existsSync(`${keyFile}.new`) || existsSync(`${keyFile}.old`)).toBe(false);

    await gw.gateway.ctx.channels.refresh();
    expect((await channel(gw, 'locked')).problem).toBeNull();
    expect((await ask(gw, 'locked-model')).status).toBe(200);
    await stop(gw);
    const again = await start();
    expect((await ask(again, 'locked-model')).status).toBe(200);
  });

  it('with SWITCHYARD_SECRET_KEY, rotation hands over a new key; instances serve once they have it', async () => {
    const oldKey = 'the first passphrase 0123456789';
    const newKey = 'the second passphrase 0123456789';
    const gw = await start({ secretKey: oldKey });
    await addChannels(gw);

    await expect(cli(['secret-key', 'rotate', '--new-key', newKey], placeEnv({ SWITCHYARD_SECRET_KEY: 'a wrong passphrase 0123456789' }))).rejects.toThrow(/rotation needs the current key/);
    const { out } = await cli(['secret-key', 'rotate', '--new-key', newKey], placeEnv({ SWITCHYARD_SECRET_KEY: oldKey }));
    expect(out).toMatchObject({ resealed: 1, forgotten: [] });
    expect(out.note).toMatch(/set SWITCHYARD_SECRET_KEY to the new key on every instance and restart them/);

    // Documented: an instance still holding the old key serves none of the sealed channels until restarted.
    await gw.gateway.ctx.channels.refresh();
    expect((await channel(gw, 'locked')).problem).toMatch(/not the one these credentials were sealed with/);
    expect((await ask(gw, 'open-model')).status).toBe(200);
    await stop(gw);
    const again = await start({ secretKey: newKey });
    expect((await channel(again, 'locked')).problem).toBeNull();
    expect((await ask(again, 'locked-model')).status).toBe(200);
  });

  it('rotation refuses while a value does not open, changing nothing; --forget-unreadable drops it and disables its channel', async () => {
    const gw = await start();
    await addChannels(gw);
    const store = await place.openStore();
    try {
      const record = (await store.channels.getByName('locked'))!;
      await store.channels.update(record.id, { apiKeysEncrypted: [SecretBox.generate().box.seal(UPSTREAM_KEY)] });
      const fingerprint = await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING);
      const keyFile = path.join(place.dataDir, 'secret.key');
      const keyText = await readFile(keyFile, 'utf8');
      await expect(cli(['secret-key', 'rotate'], placeEnv())).rejects.toThrow(/the credentials of "locked" cannot be opened with the current key, so nothing was changed/);
      expect(await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING)).toBe(fingerprint);
      expect(await readFile(keyFile, 'utf8')).toBe(keyText);
      expect(existsSync(`${keyFile}.old`)).toBe(false);

      const { out } = await cli(['secret-key', 'rotate', '--forget-unreadable'], placeEnv());
      expect(out).toMatchObject({ resealed: 0, forgotten: ['locked'] });
      expect(await store.settings.get(SECRET_KEY_FINGERPRINT_SETTING)).not.toBe(fingerprint);
    } finally {
      await store.close();
    }
    await gw.gateway.ctx.channels.refresh();
    expect(await channel(gw, 'locked')).toMatchObject({ enabled: false, apiKeyCount: 0, problem: null });
    expect((await gw.admin('PATCH', `/channels/${(await channel(gw, 'locked')).id}`, { apiKey: UPSTREAM_KEY, enabled: true })).status).toBe(200);
    expect((await ask(gw, 'locked-model')).status).toBe(200);
  });
});
