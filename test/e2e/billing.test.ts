/**
 * What a request costs: priced from reported usage, estimated when the
 * upstream reported none, charged for what was delivered when the client
 * leaves half way, and never charged when nothing was answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const KEY = 'sk-billing-key-000001';

function request(body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    signal,
    headers: { authorization: `Bearer ${KEY}`, 'anthropic-version': '2026-10-21', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function logsFor(model: string): Promise<any[]> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
    if (rows.length > 0) return rows;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return [];
}

beforeAll(async () => {
  gw = await startGateway({
    settings: { maxBodyBytes: 64 * 1024 },
    config: {
      channels: [
        { name: 'fast', type: 'simulator', models: ['priced-*'] },
        { name: 'slow', type: 'simulator', models: ['slow-*'], settings: { tokenDelayMs: 20 } },
        { name: 'down', type: 'simulator', models: ['down-*'], settings: { failStatus: 500 } },
      ],
      keys: [{ name: 'billing', key: KEY, quota: 100 }],
      prices: { 'priced-*': { input: 2, output: 10 }, 'slow-*': { input: 2, output: 10 }, 'down-*': { input: 2, output: 10 } },
    },
  });
});
afterAll(async () => gw?.close());

describe('billing', () => {
  it('prices reported usage per million tokens', async () => {
    const response = await request({ model: 'priced-a', max_tokens: 100, messages: [{ role: 'user', content: 'price me' }] });
    const message = (await response.json()) as any;
    const [row] = await logsFor('priced-a');
    const expected = (message.usage.input_tokens * 2 + message.usage.output_tokens * 10) / 1_000_000;
    expect(row.cost).toBeCloseTo(expected, 12);
    expect(row.estimated).toBe(false);
  });

  it('charges a client that leaves half way for what it received, once', async () => {
    const abort = new AbortController();
    const response = await request({ model: 'slow-a', max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'a long answer please' }] }, abort.signal);
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('text_delta')) received += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const rows = await logsFor('slow-a');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeLessThan(30);
    expect(row.estimated).toBe(true);
    expect(row.cost).toBeGreaterThan(0);
  });

  it('charges nothing when no upstream answered', async () => {
    const response = await request({ model: 'down-a', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(502);
    const [row] = await logsFor('down-a');
    expect(row).toMatchObject({ cost: 0, inputTokens: 0, outputTokens: 0, httpStatus: 502, triedChannels: ['down'] });
  });

  it('answers 413 for a body over the limit, in the family shape', async () => {
    const response = await request({ model: 'priced-a', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(70_000) }] });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  });
});
