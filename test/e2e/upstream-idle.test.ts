/**
 * An upstream that answers its headers and then goes silent, before any byte
 * reached the client: the idle timeout (`limits.upstreamIdleMs`) ends the call
 * and the next channel answers, within that timeout (plus undici's coarse
 * clock) rather than the headers timeout, which is left long. A streamed and a
 * plain Messages answer; mid-stream silence is in test/e2e/delivered-usage.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { jsonReply, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-client-upstream-idle-01';
const IDLE_MS = 300;
/**
 * undici checks its timeouts about once a second, and a busy machine adds its
 * own delay: the failover may come that much late. What the bound tells apart
 * is the idle timeout from the headers timeout, set far beyond it.
 */
const CLOCK_SLACK_MS = 10_000;
const HEADERS_TIMEOUT_MS = 60_000;

let silent: FakeUpstream;
let good: FakeUpstream;
let gw: TestGateway;

/** The status line and headers, then nothing until the gateway hangs up. */
const silentReply = (request: RecordedRequest): FakeReply => ({
  status: 200,
  headers: { 'content-type': request.json().stream ? 'text/event-stream' : 'application/json' },
  // biome-ignore lint/correctness/useYield: an upstream that sends headers and then nothing
  source: async function* () {
    await request.closed;
  },
});

beforeAll(async () => {
  silent = await startFakeUpstream(silentReply);
  good = await startFakeUpstream((request) => (request.json().stream ? sseReply('anthropic-messages', 'anthropic-text.chunks.txt') : jsonReply('anthropic-messages', 'anthropic-text.json')));
  gw = await startGateway({
    config: {
      channels: [
        { name: 'silent', type: 'anthropic', baseUrl: silent.origin, apiKey: 'sk-upstream-silent', models: ['claude-*'], priority: 10 },
        { name: 'good', type: 'anthropic', baseUrl: good.origin, apiKey: 'sk-upstream-good', models: ['claude-*'], priority: 5 },
      ],
      keys: [{ name: 'client', key: KEY }],
      limits: { upstreamIdleMs: IDLE_MS, upstreamTimeoutMs: HEADERS_TIMEOUT_MS },
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await silent?.close();
  await good?.close();
});

async function logOf(model: string): Promise<any> {
  for (let attempt = 0; attempt < 80; attempt++) {
    const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
    if (rows.length > 0) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no log row for ${model}`);
}

describe('an upstream silent before the first byte', () => {
  it.concurrent.each([
    ['streamed', true, 'claude-idle-stream'],
    ['plain', false, 'claude-idle-plain'],
  ] as const)('%s answer: the next channel answers within the idle timeout', async (_name, stream, model) => {
    const startedAt = Date.now();
    const response = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 100, stream, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const body = await response.text();
    const elapsed = Date.now() - startedAt;
    expect(response.status).toBe(200);
    if (stream) expect(body).toContain('event: message_stop');
    else expect(JSON.parse(body)).toMatchObject({ type: 'message', role: 'assistant' });
    expect(body).not.toContain('went silent');
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_MS);
    expect(elapsed).toBeLessThan(IDLE_MS + CLOCK_SLACK_MS);
    expect(await logOf(model)).toMatchObject({ triedChannels: ['silent', 'good'], httpStatus: 200 });
  });
});
