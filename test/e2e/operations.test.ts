/**
 * Running the gateway: on PostgreSQL, two instances sharing rate limits
 * through Redis, graceful shutdown with a stream in flight, and the CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);
const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const freshSchema = freshSchemas('e2e');

function messagesRequest(key: string) {
  return {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
  };
}

describe.skipIf(skipPostgres)('on PostgreSQL', () => {
  it('serves Messages clients and keeps logs and usage', async () => {
    const gw = await startGateway({ settings: { databaseUrl: postgresUrl, databaseSchema: freshSchema() } });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.clientKey, maxRetries: 0 });
      const message = await client.messages.create({ model: 'pg-model', max_tokens: 100, messages: [{ role: 'user', content: 'on postgres' }] });
      expect(message.content[0].type).toBe('text');
      const streamed = await client.messages.stream({ model: 'pg-model', max_tokens: 100, messages: [{ role: 'user', content: 'stream on postgres' }] }).finalMessage();
      expect(streamed.stop_reason).toBe('end_turn');
      const ready = (await (await fetch(`${gw.url}/readyz`)).json()) as { storage: string };
      expect(ready.storage).toBe('postgres');
      const usage = await gw.admin('GET', '/usage');
      expect(usage.body.data[0]).toMatchObject({ model: 'pg-model', requests: 2 });
    } finally {
      await gw.close();
    }
  });

  it('shares one key’s rate limit across two instances through Redis', async () => {
    const schema = freshSchema();
    const config = { keys: [{ name: 'shared', key: 'sk-shared-limit-key', rpm: 3 }] };
    const settings = { databaseUrl: postgresUrl, databaseSchema: schema, redisUrl };
    const first = await startGateway({ config, settings });
    const second = await startGateway({ config, settings });
    try {
      const statuses: number[] = [];
      for (const gw of [first, second, first, second]) {
        statuses.push((await fetch(`${gw.url}/v1/messages`, messagesRequest('sk-shared-limit-key'))).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets a stream in flight finish, then refuses new connections', async () => {
    let gw: TestGateway | undefined = await startGateway({
      config: { channels: [{ name: 'slow', type: 'simulator', models: ['*'], settings: { tokenDelayMs: 15 } }], keys: [{ name: 'k', key: 'sk-shutdown-key-01' }] },
    });
    try {
      const response = await fetch(`${gw.url}/v1/messages`, {
        ...messagesRequest('sk-shutdown-key-01'),
        body: JSON.stringify({ model: 'sim', max_tokens: 200, stream: true, messages: [{ role: 'user', content: 'a slow stream' }] }),
      });
      const reader = response.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      const closing = gw.close();
      let text = new TextDecoder().decode(first.value);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await closing;
      expect(text).toContain('event: message_stop');
      await expect(fetch(`${gw.url}/healthz`)).rejects.toThrow();
      gw = undefined;
    } finally {
      await gw?.close();
    }
  });
});

describe('CLI', () => {
  it('creates and lists keys and channels without showing upstream secrets', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-cli-'));
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
        env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir },
      }).then(({ stdout }) => JSON.parse(stdout));
    try {
      const created = await cli('keys', 'create', '--name', 'cli-key', '--quota', '5', '--rpm', '10');
      expect(created).toMatchObject({ name: 'cli-key', quota: 5, rpm: 10 });
      expect(created.key).toMatch(/^sk-sy-/);
      expect((await cli('keys', 'list')).map((key: { name: string }) => key.name)).toEqual(['cli-key']);

      const channel = await cli('channels', 'add', '--name', 'up', '--type', 'openai-chat', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-very-secret-upstream', '--models', 'a,b');
      expect(channel).toMatchObject({ name: 'up', models: ['a', 'b'], apiKeyCount: 1 });
      const listed = await cli('channels', 'list');
      expect(JSON.stringify(listed)).not.toContain('sk-very-secret-upstream');
      expect(await cli('usage')).toEqual([]);

      const failure = await cli('keys', 'create').catch((error: { stderr: string }) => error.stderr);
      expect(failure).toContain('name');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // Seven cold TypeScript CLI starts: on a busy two-core machine each can take seconds.
  }, 90_000);
});
