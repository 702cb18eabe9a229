/**
 * Remote compaction through a running gateway, with the requests Codex 0.171
 * sent (recorded fixtures): the `compaction_trigger` turn, streamed and plain,
 * answered with exactly one `compaction` item on every translating upstream
 * (the gateway asks the upstream for a hand-off summary and seals it), the
 * sealed item sent back on the next turn and read as the summary (also by an
 * openai-responses channel), `POST /v1/responses/compact`, the native
 * pass-through of both, and the refusal of OpenAI's own compaction item
 * where only translating channels serve.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type RecordedRequest, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { parseSse } from '../families/responses/support.js';
import { summaryUpstream, SUMMARY } from './compaction-upstreams.js';

type Body = Record<string, any>;

const fixture = (file: string): Body => JSON.parse(readFileSync(new URL(`../fixtures/agents/codex-0.171.0/${file}`, import.meta.url), 'utf8')).body;

const trigger = fixture('compaction-02-gpt-5.5-compaction-trigger.json');
const after = fixture('compaction-03-gpt-5.5-after-compaction.json');
const KEY = 'sk-client-compact';

let fakes: FakeUpstream;
let native: FakeUpstream;
let gw: TestGateway;
let translatedOnly: TestGateway;

const nativeCompaction = { id: 'cmp_native', type: 'compaction', encrypted_content: 'openai-opaque-state' };
const nativeUsage = { input_tokens: 9, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 };

function nativeReply(request: RecordedRequest): FakeReply {
  const json = (value: Body): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  if (request.url === '/v1/responses/compact') return json({ id: 'resp_c', object: 'response.compaction', created_at: 1, output: [nativeCompaction], usage: nativeUsage });
  const body = request.json<Body>();
  const output =
    body.input.at(-1)?.type === 'compaction_trigger'
      ? [nativeCompaction]
      : [{ id: 'msg_n', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'native', annotations: [] }] }];
  const done = { id: 'resp_n', object: 'response', created_at: 1, status: 'completed', model: body.model, output, usage: nativeUsage };
  if (!body.stream) return json(done);
  const frame = (type: string, fields: Body, n: number) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...fields })}\n\n`;
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: [
      frame('response.created', { response: { ...done, status: 'in_progress', output: [], usage: null } }, 0),
      frame('response.output_item.done', { output_index: 0, item: output[0] }, 1),
      frame('response.completed', { response: done }, 2),
    ],
  };
}

const channels = (fakeOrigin: string) => [
  { name: 'sim', type: 'simulator', models: ['sim-*'] },
  { name: 'claude', type: 'anthropic', baseUrl: fakeOrigin, apiKey: 'sk-up', models: ['claude-*'] },
  { name: 'chat', type: 'openai-chat', baseUrl: `${fakeOrigin}/v1`, apiKey: 'sk-up', models: ['chat-*'] },
  { name: 'gemini', type: 'gemini', baseUrl: fakeOrigin, apiKey: 'sk-up', models: ['gemini-*'] },
];

beforeAll(async () => {
  fakes = await startFakeUpstream(summaryUpstream);
  native = await startFakeUpstream(nativeReply);
  gw = await startGateway({
    config: {
      channels: [
        ...channels(fakes.origin),
        { name: 'native', type: 'openai-responses', baseUrl: `${native.origin}/v1`, apiKey: 'sk-up', models: ['gpt-*', 'mix-*'] },
        // Preferred for mix-* models, but unable to read OpenAI's own compaction items.
        { name: 'mix-claude', type: 'anthropic', baseUrl: fakes.origin, apiKey: 'sk-up', models: ['mix-*'], priority: 10 },
      ],
      keys: [{ name: 'codex', key: KEY }],
      prices: { 'claude-priced': { input: 3, output: 15 } },
    },
  });
  translatedOnly = await startGateway({ config: { channels: channels(fakes.origin), keys: [{ name: 'codex', key: KEY }] } });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await translatedOnly?.close();
  await fakes?.close();
  await native?.close();
});

function post(path: string, body: unknown, gateway = gw): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A streamed compaction turn: the event types and the one compaction item from `output_item.done`. */
async function streamTrigger(model: string): Promise<{ types: string[]; items: Body[]; completed: Body }> {
  const response = await post('/v1/responses', { ...trigger, model });
  expect(response.status).toBe(200);
  const events = parseSse(await response.text()).map((event) => event.data as Body);
  const completed = events.find((event) => event.type === 'response.completed');
  expect(completed, JSON.stringify(events.at(-1))).toBeDefined();
  return { types: events.map((event) => event.type), items: events.filter((event) => event.type === 'response.output_item.done').map((event) => event.item), completed: completed!.response };
}

describe('compaction performed by the gateway on translating upstreams', () => {
  for (const model of ['claude-x', 'chat-x', 'gemini-x', 'sim-x']) {
    it(`${model}: the recorded trigger streams exactly one sealed compaction item; the next turn reads its summary`, async () => {
      const { types, items, completed } = await streamTrigger(model);
      expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(types.slice(-3)).toEqual(['response.output_item.added', 'response.output_item.done', 'response.completed']);
      expect(types).not.toContain('response.output_text.delta');
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ type: 'compaction', id: expect.stringMatching(/^cmp_/), encrypted_content: expect.stringMatching(/^swy1/) });
      expect(completed.output).toEqual(items);
      expect(completed.usage.input_tokens).toBeGreaterThan(0);
      if (model !== 'sim-x') {
        const asked = JSON.stringify(fakes.requests.at(-1)!.json());
        expect(asked).toContain('hand-off');
        expect(asked).not.toContain('compaction_trigger');
      }

      // The next turn, as Codex sends it: the compaction item in place of the compacted turns.
      const next = { ...after, model, input: after.input.map((item: Body) => (item.type === 'compaction' ? items[0] : item)) };
      const answered = await post('/v1/responses', next);
      expect(answered.status).toBe(200);
      await answered.text();
      if (model !== 'sim-x') expect(JSON.stringify(fakes.requests.at(-1)!.json())).toContain(SUMMARY);
    });
  }

  it('a plain trigger request gets a plain response whose output is the one compaction item', async () => {
    const response = await post('/v1/responses', { ...trigger, model: 'claude-x', stream: false });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Body;
    expect(body.status).toBe('completed');
    expect(body.output).toHaveLength(1);
    expect(body.output[0]).toMatchObject({ type: 'compaction', encrypted_content: expect.stringMatching(/^swy1/) });
    const sent = fakes.requests.at(-1)!.json<Body>();
    expect(sent.tool_choice).toEqual({ type: 'none' });
  });

  it('a stored compaction continued with previous_response_id is read as its summary, here and on a native channel', async () => {
    const response = await post('/v1/responses', { ...trigger, model: 'claude-x', stream: false, store: true });
    const compacted = (await response.json()) as Body;
    expect(compacted.output).toHaveLength(1);
    for (const model of ['claude-x', 'gpt-native']) {
      const upstream = model === 'gpt-native' ? native : fakes;
      const next = await post('/v1/responses', { model, previous_response_id: compacted.id, input: 'and now?', stream: false });
      expect(next.status).toBe(200);
      const sent = JSON.stringify(upstream.requests.at(-1)!.json());
      expect(sent).toContain(SUMMARY);
      expect(sent).not.toContain('swy1');
      expect(sent).not.toContain('compaction_trigger');
      // The earlier turn's trigger is history now, not a request for another compaction.
      expect(((await next.json()) as Body).output[0].type).toBe('message');
    }
  });

  it('the summarising call is billed and logged to the key like any request', async () => {
    const response = await post('/v1/responses', { ...trigger, model: 'claude-priced' });
    expect(response.status).toBe(200);
    await response.text();
    let rows: Body[] = [];
    for (let attempt = 0; attempt < 40 && rows.length === 0; attempt++) {
      rows = (await gw.admin('GET', '/logs?model=claude-priced')).body.data;
      if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ family: 'responses', inputTokens: 80, outputTokens: 20 });
    expect(rows[0]!.cost).toBeCloseTo((80 * 3 + 20 * 15) / 1_000_000, 12);
  });

  it('POST /v1/responses/compact answers the kept user messages and one sealed compaction item', async () => {
    const { stream: _stream, store: _store, include: _include, ...body } = trigger;
    const input = trigger.input.filter((item: Body) => item.type !== 'compaction_trigger');
    for (const model of ['claude-x', 'chat-x', 'gemini-x', 'sim-x']) {
      const response = await post('/v1/responses/compact', { ...body, input, model });
      expect(response.status).toBe(200);
      const compacted = (await response.json()) as Body;
      expect(compacted.object).toBe('response.compaction');
      const compactions = compacted.output.filter((item: Body) => item.type === 'compaction');
      expect(compactions).toHaveLength(1);
      expect(compacted.output.at(-1).encrypted_content).toMatch(/^swy1/);
      expect(compacted.output.slice(0, -1).every((item: Body) => item.type === 'message' && item.role === 'user')).toBe(true);
      expect(compacted.usage.total_tokens).toBeGreaterThan(0);
    }
  });
});

describe('compaction on an openai-responses channel', () => {
  it("passes the trigger through untouched and sends OpenAI's own compaction item back untouched", async () => {
    const { types, items } = await streamTrigger('gpt-native');
    expect(items).toEqual([nativeCompaction]);
    expect(types.at(-1)).toBe('response.completed');
    expect(native.requests.at(-1)!.json()).toEqual({ ...trigger, model: 'gpt-native' });

    const next = { ...after, model: 'gpt-native' };
    const response = await post('/v1/responses', next);
    expect(response.status).toBe(200);
    await response.text();
    expect(native.requests.at(-1)!.json()).toEqual(next);
  });

  it('reads a compaction the gateway sealed as its summary, a user message', async () => {
    const { items } = await streamTrigger('claude-x');
    const next = { ...after, model: 'gpt-native', input: after.input.map((item: Body) => (item.type === 'compaction' ? items[0] : item)) };
    const response = await post('/v1/responses', next);
    expect(response.status).toBe(200);
    await response.text();
    const sent = native.requests.at(-1)!.json<Body>();
    expect(sent.input.some((item: Body) => item.type === 'compaction')).toBe(false);
    const summary = sent.input.find((item: Body) => JSON.stringify(item).includes(SUMMARY));
    expect(summary).toMatchObject({ type: 'message', role: 'user' });
  });

  it("POST /v1/responses/compact goes to the upstream's own compact endpoint", async () => {
    const body = { model: 'gpt-native', input: [{ type: 'message', role: 'user', content: 'hi' }], instructions: 'be brief' };
    const response = await post('/v1/responses/compact', body);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Body).output).toEqual([nativeCompaction]);
    const sent = native.requests.at(-1)!;
    expect(sent.url).toBe('/v1/responses/compact');
    expect(sent.json()).toEqual(body);
  });
});

describe('a compaction item the gateway did not seal', () => {
  it('goes to the native channel even when a translating one is preferred', async () => {
    const before = fakes.requests.length;
    const response = await post('/v1/responses', { ...after, model: 'mix-x' });
    expect(response.status).toBe(200);
    await response.text();
    expect(native.requests.at(-1)!.json()).toEqual({ ...after, model: 'mix-x' });
    expect(fakes.requests.length).toBe(before);
  });

  it('is refused by name where no channel can read it', async () => {
    const response = await post('/v1/responses', { ...after, model: 'claude-x' }, translatedOnly);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Body;
    expect(body.error.message).toMatch(/compaction/);
    expect(JSON.stringify(body)).not.toMatch(/openai-opaque|fake-compaction/);
  });

  it('the trigger no longer fails through an anthropic channel', async () => {
    const response = await post('/v1/responses', { ...trigger, model: 'claude-x' }, translatedOnly);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"type":"compaction"');
  });
});
