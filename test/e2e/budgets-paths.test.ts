/**
 * Budgets on the paths that skip translation: a Responses client passed
 * through to an openai-responses upstream, over HTTP and as WebSocket turns,
 * is held and charged like any other request (tokens and USD go to the
 * budget's period), and refused once the budget is spent: over HTTP in the
 * family's error shape, on the socket as the turn's `error` event.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

type Json = Record<string, any>;
const SECRET = 'sk-budget-paths-0001';
let native: FakeUpstream;
let gw: TestGateway;
let keyId: string;

const answer = (id: string) => ({
  id,
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-native',
  output: [{ id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'native', annotations: [] }] }],
  usage: { input_tokens: 400, input_tokens_details: { cached_tokens: 0 }, output_tokens: 100, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 500 },
});

beforeAll(async () => {
  let turn = 0;
  native = await startFakeUpstream((request) => {
    const response = answer(`resp_up${++turn}`);
    if (!String(request.body).includes('"stream":true')) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(response) };
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } })}\n\n`,
        `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response })}\n\n`,
      ],
    };
  });
  gw = await startGateway({
    config: {
      channels: [{ name: 'native', type: 'openai-responses', baseUrl: `${native.origin}/v1`, apiKey: 'sk-up', models: ['gpt-*'] }],
      keys: [{ name: 'paths', key: SECRET }],
      prices: { 'gpt-*': { input: 100, output: 100 } },
    },
  });
  keyId = (await gw.admin('GET', '/keys')).body.data[0].id;
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await native?.close();
});

async function socketTurn(): Promise<Json[]> {
  const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${SECRET}` } });
  const events: Json[] = [];
  const done = new Promise<void>((resolve) =>
    socket.on('message', (data) => {
      const event = JSON.parse(String(data));
      events.push(event);
      if (['response.completed', 'response.failed', 'error'].includes(event.type)) resolve();
    }),
  );
  await new Promise<void>((resolve) => socket.once('open', () => resolve()));
  socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-native', input: 'hi', max_output_tokens: 100 }));
  await done;
  socket.close();
  return events;
}

const passThrough = () =>
  fetch(`${gw.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-native', input: 'hi', max_output_tokens: 100 }),
  });

describe('a budget on pass-through and WebSocket turns', () => {
  it('counts both, then refuses both', async () => {
    // 500 tokens a request: two requests fit under 1,200 tokens, the third starts at 1,000 and still fits, the fourth is refused.
    const budget = (await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: keyId, name: 'paths', tokens: 1200, period: 'monthly' })).body;
    const plain = await passThrough();
    expect(plain.status).toBe(200);
    await plain.arrayBuffer();
    expect((await gw.admin('GET', `/budgets/${budget.id}`)).body.spent).toEqual({ usd: expect.closeTo(0.05, 9), tokens: 500 });
    expect((await socketTurn()).at(-1)).toMatchObject({ type: 'response.completed' });
    expect((await gw.admin('GET', `/budgets/${budget.id}`)).body.spent).toEqual({ usd: expect.closeTo(0.1, 9), tokens: 1000 });
    expect((await socketTurn()).at(-1)).toMatchObject({ type: 'response.completed' });

    const refused = await passThrough();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).error).toMatchObject({ code: 'insufficient_quota', message: expect.stringContaining('monthly key budget "paths" is spent') });
    const turn = await socketTurn();
    expect(turn.at(-1)).toMatchObject({ type: 'error' });
    expect(JSON.stringify(turn.at(-1))).toContain('key budget \\"paths\\" is spent');
  });
});
