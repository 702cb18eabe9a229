/**
 * Translation plans are decided before routing: a channel whose plan refuses
 * is skipped, so two channels of equal priority never turn one request into a
 * 400 or an answer by the luck of the weighted draw; what translation ignored
 * is named in a header and in the request log; strict keys refuse it instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { fixtureText, type FixtureDialect } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const CLIENT_KEY = 'sk-client-translation-plan';
const STRICT_KEY = 'sk-strict-translation-plan';
let anthropic: FakeUpstream;
let chat: FakeUpstream;
let otherChat: FakeUpstream;
let gw: TestGateway;

const plainReply = (dialect: FixtureDialect, file: string) => (): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: fixtureText(dialect, file),
});

beforeAll(async () => {
  anthropic = await startFakeUpstream(plainReply('anthropic-messages', 'anthropic-text.json'));
  chat = await startFakeUpstream(plainReply('openai-chat', 'openai-text.json'));
  otherChat = await startFakeUpstream(plainReply('openai-chat', 'openai-text.json'));
  gw = await startGateway({
    config: {
      channels: [
        // Equal priority and weight: without planning before routing, the draw would decide.
        { name: 'anthropic', type: 'anthropic', baseUrl: anthropic.origin, apiKey: 'sk-up-a', models: ['shared-model'], priority: 5 },
        { name: 'chat', type: 'openai-chat', baseUrl: `${chat.origin}/v1`, apiKey: 'sk-up-c', models: ['shared-model', 'chat-only'], priority: 5 },
        { name: 'chat-2', type: 'openai-chat', baseUrl: `${otherChat.origin}/v1`, apiKey: 'sk-up-d', models: ['chat-only'], priority: 5 },
      ],
      keys: [
        { name: 'client', key: CLIENT_KEY },
        { name: 'strict', key: STRICT_KEY, strictTranslation: true },
      ],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([anthropic?.close(), chat?.close(), otherChat?.close()]);
});

async function messages(body: Record<string, unknown>, key = CLIENT_KEY) {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ max_tokens: 100, messages: [{ role: 'user', content: 'search for it' }], ...body }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const forcedSearch = {
  tools: [{ type: 'web_search_20250305', name: 'web_search' }],
  tool_choice: { type: 'tool', name: 'web_search' },
};

describe('plans decided before routing', () => {
  it('sends a request one of two equal channels must refuse to the other, every time', async () => {
    const before = { anthropic: anthropic.requests.length, chat: chat.requests.length };
    for (let i = 0; i < 24; i++) {
      const res = await messages({ model: 'shared-model', ...forcedSearch });
      expect(res.status).toBe(200);
    }
    expect(anthropic.requests.length - before.anthropic).toBe(24);
    expect(chat.requests.length - before.chat).toBe(0);
  });

  it('answers 400 naming the field, every time, when no candidate can serve', async () => {
    const sentBefore = chat.requests.length + otherChat.requests.length;
    for (let i = 0; i < 6; i++) {
      const res = await messages({ model: 'chat-only', ...forcedSearch });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
      expect(res.body.error.message).toContain('web_search_20250305');
    }
    // Refused before routing: no upstream was called.
    expect(chat.requests.length + otherChat.requests.length).toBe(sentBefore);
  });

  it('names what was ignored in the header and the request log, and leaves it out upstream', async () => {
    const res = await messages({ model: 'chat-only', top_k: 20, tools: [{ type: 'web_search_20250305', name: 'web_search' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBe('ignored=top_k,tool web_search_20250305');
    const sent = [...chat.requests, ...otherChat.requests].at(-1)!.json<Record<string, unknown>>();
    expect(sent).not.toHaveProperty('top_k');
    expect(sent).not.toHaveProperty('tools');
    const logs = await gw.admin('GET', '/logs?limit=5');
    const row = logs.body.data.find((entry: { requestId: string }) => entry.requestId === res.headers.get('request-id'));
    expect(row?.translation).toBe('ignored=top_k,tool web_search_20250305');
  });

  it('refuses what would be ignored for a key in strict translation mode', async () => {
    const res = await messages({ model: 'chat-only', top_k: 20 }, STRICT_KEY);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/top_k is not supported: strict translation is on/);
    expect((await messages({ model: 'shared-model', top_k: 20 }, STRICT_KEY)).status).toBe(200);
  });
});
