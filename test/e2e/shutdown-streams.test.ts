/**
 * Shutdown with a stream still running when the grace period ends: the
 * gateway ends it with the family's error frame, aborts the upstream call, and
 * the request is logged and charged for what was delivered before the store
 * closes; in every chat family, on the native and the translated path, on
 * SQLite and PostgreSQL. The upstream never finishes, so the grace period
 * always ends first.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/open.js';
import { engines, freshSchemas, postgresUrl } from '../storage/engines.js';
import { startGateway } from '../support/gateway.js';
import { silentAfter, startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { sseFrames, type FixtureDialect } from '../upstreams/support/fixtures.js';

const CLIENT_KEY = 'sk-client-shutdown-01';
const freshSchema = freshSchemas('shutdown');

/** The first frames of a recorded stream of each provider, then silence until the gateway goes away. */
const beginnings: Record<string, { dialect: FixtureDialect; file: string; frames: number; marker: string }> = {
  anthropic: { dialect: 'anthropic-messages', file: 'anthropic-text.chunks.txt', frames: 5, marker: 'Hello' },
  gemini: { dialect: 'gemini', file: 'google-text.chunks.txt', frames: 1, marker: 'There are' },
  responses: { dialect: 'openai-responses', file: 'openai-pdf-input-file.1.chunks.txt', frames: 7, marker: 'Dummy' },
  chat: { dialect: 'openai-chat', file: 'openai-text.chunks.txt', frames: 12, marker: '**' },
};

let upstream: FakeUpstream;

function providerOf(request: RecordedRequest): string {
  if (request.url.includes('Content')) return 'gemini';
  if (request.url.endsWith('/messages')) return 'anthropic';
  if (request.url.endsWith('/responses')) return 'responses';
  return 'chat';
}

beforeAll(async () => {
  upstream = await startFakeUpstream((request) => {
    const { dialect, file, frames } = beginnings[providerOf(request)]!;
    return silentAfter(request, sseFrames(dialect, file).slice(0, frames));
  });
});
afterAll(() => upstream?.close());

interface Family {
  name: string;
  native: string;
  translated: string;
  request(model: string): { path: string; headers: Record<string, string>; body: unknown };
  /** The family's error frame at the end of the stream. */
  errorFrame: RegExp;
}

const families: Family[] = [
  {
    name: 'Messages',
    native: 'anthropic',
    translated: 'chat',
    request: (model) => ({
      path: '/v1/messages',
      headers: { 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: { model, max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    }),
    errorFrame: /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"the gateway is shutting down[^"]*"/,
  },
  {
    name: 'generateContent',
    native: 'gemini',
    translated: 'anthropic',
    request: (model) => ({
      path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      headers: { 'x-goog-api-key': CLIENT_KEY },
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    }),
    errorFrame: /data: \{"error":\{"code":503,"message":"the gateway is shutting down[^"]*","status":"UNAVAILABLE"\}\}/,
  },
  {
    name: 'Responses',
    native: 'responses',
    translated: 'gemini',
    request: (model) => ({ path: '/v1/responses', headers: { authorization: `Bearer ${CLIENT_KEY}` }, body: { model, input: 'hi', stream: true } }),
    errorFrame: /event: error\n[\s\S]*the gateway is shutting down[\s\S]*event: response\.failed\n/,
  },
  {
    name: 'Chat Completions',
    native: 'chat',
    translated: 'responses',
    request: (model) => ({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${CLIENT_KEY}` },
      body: { model, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    }),
    errorFrame: /data: \{"error":\{"message":"the gateway is shutting down[^"]*","type":"server_error"/,
  },
];

const channel = (name: string, type: string, baseUrl: string) => ({ name, type, baseUrl, apiKey: 'sk-upstream-shutdown', models: [`via-${name}`] });

for (const { engine, skip } of engines) {
  describe.skipIf(skip)(`shutdown with a stream still running (${engine})`, () => {
    const cases = families.flatMap((family) => (['native', 'translated'] as const).map((path) => [family.name, path, family] as const));

    it.each(cases)('%s, %s path: the family’s error frame, then a log row charged for what was delivered', async (_name, path, family) => {
      const settings = engine === 'postgres' ? { databaseUrl: postgresUrl, databaseSchema: freshSchema() } : {};
      const gw = await startGateway({
        settings: { ...settings, shutdownGraceMs: 50 },
        config: {
          channels: [
            channel('anthropic', 'anthropic', upstream.origin),
            channel('gemini', 'gemini', upstream.origin),
            channel('responses', 'openai-responses', `${upstream.origin}/v1`),
            channel('chat', 'openai-chat', `${upstream.origin}/v1`),
          ],
          keys: [{ name: 'client', key: CLIENT_KEY }],
          prices: { '*': { input: 1, output: 2 } },
        },
      });
      const dataDir = gw.dataDir;
      const model = `via-${family[path]}`;
      const request = family.request(model);
      const response = await fetch(`${gw.url}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      // The upstream's first frames reached the client: the stream is running.
      while (!text.includes(beginnings[family[path]]!.marker)) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const closing = gw.gateway.close();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await closing;
      expect(text).toMatch(family.errorFrame);
      // The upstream call was aborted: its connection is closed.
      await upstream.requests.at(-1)!.closed;

      // Logged and charged before the store closed: read it back from the database.
      const store = await openStore({ dataDir, ...(engine === 'postgres' ? { databaseUrl: postgresUrl, schema: settings.databaseSchema } : {}) });
      try {
        const [row] = await store.logs.query({ model, limit: 5 });
        expect(row).toMatchObject({ model, stream: true, errorKind: 'unavailable' });
        expect(row!.outputTokens).toBeGreaterThan(0);
        expect(row!.cost).toBeGreaterThan(0);
        const key = await store.keys.getByName('client');
        expect(key!.used).toBeCloseTo(row!.cost, 10);
      } finally {
        await store.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
