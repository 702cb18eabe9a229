/**
 * A channel is valid when stored, whichever way it comes in (CLI, admin API,
 * config file): a base URL where its type needs one, credentials where its
 * type needs them, never an empty one, and a model list. A channel that is
 * bad anyway (stored by hand, or failing when its request is built) is one
 * bad channel: the other models, and the other channels of its model, serve.
 * On SQLite and PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { postgresUrl } from '../storage/engines.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { fixtureText } from '../upstreams/support/fixtures.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const run = promisify(execFile);
const KEY = 'sk-rules-client-0001';

const ask = (gw: TestGateway, model: string) =>
  fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
  });

describe.each(ENGINES)('channel rules on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  const logLines: string[] = [];
  const env = () => ({
    SWITCHYARD_DATA_DIR: place.dataDir,
    ...(place.schema ? { SWITCHYARD_DATABASE_URL: postgresUrl, SWITCHYARD_DATABASE_SCHEMA: place.schema } : {}),
  });
  const cli = (args: string[]) => runCli(args, { env: env(), stdout: () => undefined, stderr: () => undefined });

  beforeAll(async () => {
    upstream = await startFakeUpstream({ status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('anthropic-messages', 'anthropic-text.json') });
    place = await createPlace(engine);
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        logLines.push(String(chunk));
        done();
      },
    });
    gw = await place.start({
      logger: pino({ level: 'info' }, sink),
      config: {
        keys: [{ name: 'client', key: KEY }],
        channels: [
          { name: 'sim', type: 'simulator', models: ['sim-*'] },
          { name: 'keyless-local', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['local-*'] },
          { name: 'anthropic-up', type: 'anthropic', baseUrl: upstream.origin, apiKey: 'sk-upstream-0001', models: ['claude-*'] },
        ],
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  describe('the CLI refuses a channel its type cannot use, with the message', () => {
    it.each([
      [['--type', 'openai-chat', '--models', '*'], 'baseUrl: required for type openai-chat (an absolute http(s) URL) unless settings.preset is set'],
      [['--type', 'anthropic', '--base-url', 'https://api.anthropic.com', '--api-key', '', '--models', 'claude-*'], 'apiKey: must not be empty'],
      [['--type', 'anthropic', '--base-url', 'https://api.anthropic.com', '--models', 'claude-*'], 'apiKey: required for type anthropic'],
      [['--type', 'gemini', '--api-key', 'sk-up'], 'models: required for type gemini'],
    ])('channels add %j', async (args, message) => {
      await expect(cli(['channels', 'add', '--name', 'z', ...args])).rejects.toThrow(message);
      expect((await gw.admin('GET', '/channels')).body.data.map((channel: { name: string }) => channel.name)).not.toContain('z');
    });

    it('the command exits non-zero and prints the message', async () => {
      const failed = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'channels', 'add', '--name', 'z', '--type', 'openai-chat'], {
        env: { ...process.env, ...env() },
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('switchyard: baseUrl: required for type openai-chat');
    }, 60_000);
  });

  it('the admin API answers 400 naming the field', async () => {
    const refused = await gw.admin('POST', '/channels', { name: 'z', type: 'openai-chat' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ type: 'invalid_request', message: 'baseUrl: required for type openai-chat (an absolute http(s) URL) unless settings.preset is set', param: 'baseUrl' });
    const noModels = await gw.admin('POST', '/channels', { name: 'z', type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(noModels.body.error).toMatchObject({ param: 'models' });
    const emptyKey = await gw.admin('POST', '/channels', { name: 'z', type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', models: ['*'] });
    expect(emptyKey.body.error).toMatchObject({ param: 'apiKey', message: expect.stringMatching(/^apiKey: must not be empty/) });
  });

  it('a cloud credential that can never work is refused when written, by field, never quoted', async () => {
    const bedrock = await gw.admin('POST', '/channels', { name: 'z', type: 'bedrock', apiKey: ['AKID:secret-one', 'only-a-secret-0001'], models: ['claude-*'] });
    expect(bedrock.status).toBe(400);
    expect(bedrock.body.error).toMatchObject({ param: 'apiKey[1]', message: expect.stringContaining('is not ACCESS_KEY_ID:SECRET_ACCESS_KEY') });
    expect(JSON.stringify(bedrock.body)).not.toContain('only-a-secret-0001');
    const vertex = await gw.admin('POST', '/channels', { name: 'z', type: 'vertex', apiKey: 'ya29.not-a-json-key', models: ['gemini-*'] });
    expect(vertex.body.error).toMatchObject({ param: 'apiKey', message: expect.stringContaining('is not a service-account JSON key') });
    // The same keys are what the other auth modes take.
    const apiKeyAuth = await gw.admin('POST', '/channels', { name: 'z1', type: 'bedrock', apiKey: 'ABSK-bedrock-api-key', models: ['claude-*'], settings: { auth: 'api-key' } });
    const tokenAuth = await gw.admin('POST', '/channels', {
      name: 'z2',
      type: 'vertex',
      apiKey: 'ya29.not-a-json-key',
      models: ['gemini-*'],
      settings: { auth: 'access-token', project: 'my-project' },
    });
    expect([apiKeyAuth.status, tokenAuth.status]).toEqual([201, 201]);
    // Gone again, so that the later cases route as before.
    await gw.admin('DELETE', `/channels/${apiKeyAuth.body.id}`);
    await gw.admin('DELETE', `/channels/${tokenAuth.body.id}`);
    await expect(cli(['channels', 'add', '--name', 'z3', '--type', 'bedrock', '--api-key', 'just-one-part', '--models', '*'])).rejects.toThrow('apiKey: is not ACCESS_KEY_ID:SECRET_ACCESS_KEY');
  });

  it('a config file with such a channel fails at start, naming the channel and the field', async () => {
    const other = await createPlace(engine);
    try {
      await expect(other.start({ config: { channels: [{ name: 'z', type: 'openai-chat', models: ['*'] }] } })).rejects.toThrow(
        'channels[0].baseUrl (channel "z"): required for type openai-chat (an absolute http(s) URL) unless settings.preset is set',
      );
      await expect(other.start({ config: { channels: [{ name: 'y', type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-up' }] } })).rejects.toThrow(
        'channels[0].models (channel "y"): required for type anthropic',
      );
    } finally {
      await other.destroy();
    }
  });

  it('a keyless channel sends no auth header; a keyed one sends its key', async () => {
    upstream.requests.length = 0;
    upstream.reply(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'local-1',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    }));
    expect((await ask(gw, 'local-1')).status).toBe(200);
    const [sent] = upstream.requests;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBeUndefined();
    upstream.reply(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('anthropic-messages', 'anthropic-text.json') }));
    expect((await ask(gw, 'claude-1')).status).toBe(200);
    expect(upstream.requests.at(-1)?.headers['x-api-key']).toBe('sk-upstream-0001');
  });

  it('a stored channel without a base URL (inserted directly) is disabled; every other model still serves', async () => {
    const store = gw.gateway.ctx.store;
    await store.channels.create({
      name: 'no-base-url',
      type: 'openai-chat',
      baseUrl: '',
      models: ['*'],
      modelMapping: {},
      priority: 100,
      weight: 1,
      status: 'enabled',
      settings: {},
      apiKeysEncrypted: [],
    });
    await gw.gateway.ctx.channels.refresh();
    expect(gw.gateway.ctx.channels.all().find((channel) => channel.name === 'no-base-url')?.enabled).toBe(false);
    expect(logLines.join('')).toMatch(/"channel":"no-base-url".*"problem":"baseUrl: required for type openai-chat/);
    for (const model of ['sim-1', 'claude-1']) {
      const response = await ask(gw, model);
      expect(response.status, model).toBe(200);
      expect(response.headers.get('x-switchyard-channel')).not.toBe('no-base-url');
    }
    // What only the broken channel would serve is served by nobody: a 404 naming the model, never a 500 or the simulator.
    const unserved = await ask(gw, 'any-model');
    expect(unserved.status).toBe(404);
    expect(((await unserved.json()) as { error: { message: string } }).error.message).toContain('model "any-model" is not served by any channel');
  });

  it('a stored channel with an unknown setting keeps serving; the key is named once in the log with the closest known name', async () => {
    const store = gw.gateway.ctx.store;
    const stored = (name: string, settings: Record<string, unknown>, model: string) =>
      store.channels.create({ name, type: 'simulator', baseUrl: '', models: [model], modelMapping: {}, priority: 0, weight: 1, status: 'enabled', settings, apiKeysEncrypted: [] });
    // Written before settings had a schema: a typo, and a value of a key that was read leniently then.
    await stored('stored-typo', { latencyMS: 5, strictTranslation: 'yes' }, 'typo-model');
    // A value the simulator always refused: the channel stays unusable, as it was.
    await stored('stored-bad-value', { latencyMs: -1 }, 'bad-value-model');
    await gw.gateway.ctx.channels.refresh();
    await gw.gateway.ctx.channels.refresh();
    const served = await ask(gw, 'typo-model');
    expect(served.status).toBe(200);
    expect((await gw.admin('GET', '/logs?limit=1')).body.data[0].triedChannels).toEqual(['stored-typo']);
    const warnings = logLines.filter((line) => line.includes('"channel":"stored-typo"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unknown setting `latencyMS` for a simulator channel; did you mean `latencyMs`?; ignored');
    expect(warnings[0]).toContain('settings.strictTranslation must be true or false; ignored');
    const listed = (await gw.admin('GET', '/channels')).body.data.find((channel: { name: string }) => channel.name === 'stored-typo');
    expect(listed).toMatchObject({ problem: null, ignoredSettings: [expect.stringContaining('did you mean `latencyMs`?'), expect.stringContaining('settings.strictTranslation')] });
    expect(gw.gateway.ctx.channels.all().find((channel) => channel.name === 'stored-bad-value')?.enabled).toBe(false);
    expect(logLines.join('')).toMatch(/"channel":"stored-bad-value".*"problem":"settings\.latencyMs: must be a number >= 0"/);
    // Written now, the same typo is refused, naming the key.
    const refused = await gw.admin('POST', '/channels', { name: 'typo-now', type: 'simulator', settings: { latencyMS: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'settings.latencyMS', message: expect.stringContaining('did you mean `latencyMs`?') });
  });

  it('a channel whose request cannot be sent is one failed attempt: the next channel serves', async () => {
    // A credential no HTTP header can carry: the request throws while it is built, before anything is sent.
    const created = await gw.admin('POST', '/channels', {
      name: 'unsendable',
      type: 'anthropic',
      baseUrl: upstream.origin,
      apiKey: 'sk-bad\nkey',
      models: ['claude-*'],
      priority: 50,
    });
    expect(created.status).toBe(201);
    await gw.gateway.ctx.channels.refresh();
    const response = await ask(gw, 'claude-2');
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/TypeError|InvalidArgument/);
    const [log] = (await gw.admin('GET', '/logs?limit=1')).body.data;
    expect(log.triedChannels).toEqual(['unsendable', 'anthropic-up']);
    // Alone on a model, it answers the family's error shape, without runtime text.
    await gw.admin('PATCH', `/channels/${created.body.id}`, { models: ['solo-model'] });
    await gw.gateway.ctx.channels.refresh();
    const solo = await ask(gw, 'solo-model');
    const body = (await solo.json()) as { type: string; error: { type: string; message: string } };
    expect(solo.status).toBe(502);
    expect(body.type).toBe('error');
    expect(body.error.message).not.toMatch(/TypeError|InvalidArgument|Invalid URL/);
  });
});
