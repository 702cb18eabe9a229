/**
 * Legacy Completions (`POST /v1/completions`) through the official client's
 * `completions.create`, plain and streamed, on SQLite and PostgreSQL: the
 * simulator and an `anthropic` channel (translated through the internal chat
 * request), and an `openai-chat` channel that declares `completionsEndpoint`
 * (the client's body passes to its `/completions` as it is). Billed at the
 * model's token prices and logged under the `completions` family; what a
 * chat upstream cannot honour is refused by name.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeAnswer } from '../support/claude-script.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

const KEY = 'sk-client-completions';
const LIMITED_KEY = 'sk-client-completions-limited';
const sse = (events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`);

function anthropicReply(request: RecordedRequest): FakeReply {
  const body = request.json<Record<string, any>>();
  const answer = claudeAnswer(body.model, body, { greeting: 'Hello from Claude.', idTag: 'cmp' });
  if (!body.stream) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer.message) };
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: answer.events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) };
}

/** A server offering legacy Completions itself (vLLM-like): echoes the prompt it got in its text. */
function nativeReply(request: RecordedRequest): FakeReply {
  const body = request.json<Record<string, any>>();
  if (body.model === 'instruct-too-long') {
    const error = { message: "This model's maximum context length is 4097 tokens.", type: 'invalid_request_error', param: 'prompt', code: 'context_length_exceeded' };
    return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error }) };
  }
  const base = { id: 'cmpl-native01', object: 'text_completion', created: 1, model: body.model };
  const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
  if (!body.stream) {
    const choice = {
      text: ' native text',
      index: 0,
      logprobs: body.logprobs != null ? { tokens: [' native'], token_logprobs: [-0.1], top_logprobs: null, text_offset: [0] } : null,
      finish_reason: 'length',
    };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...base, choices: [choice], usage }) };
  }
  const chunks = [
    { ...base, choices: [{ text: ' native', index: 0, logprobs: null, finish_reason: null }] },
    { ...base, choices: [{ text: ' stream', index: 0, logprobs: null, finish_reason: 'stop' }] },
  ];
  const withUsage = body.stream_options?.include_usage === true ? [...chunks, { ...base, choices: [], usage }] : chunks;
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [...sse(withUsage), 'data: [DONE]\n\n'] };
}

describe.each(ENGINES)('legacy completions on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let anthropic: FakeUpstream;
  let native: FakeUpstream;
  let broken: FakeUpstream;
  let client: OpenAI;

  async function logFor(model: string): Promise<any> {
    for (let attempt = 0; attempt < 80; attempt++) {
      const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
      if (rows.length > 0) return rows[0];
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no log row for ${model}`);
  }

  beforeAll(async () => {
    anthropic = await startFakeUpstream(anthropicReply);
    native = await startFakeUpstream(nativeReply);
    broken = await startFakeUpstream(() => ({
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'overloaded', type: 'server_error', param: null, code: null } }),
    }));
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'sim', type: 'simulator', models: ['sim-*'] },
          { name: 'claude', type: 'anthropic', baseUrl: anthropic.origin, apiKey: 'sk-upstream-anthropic', models: ['claude-*', 'both-*', 'fall-*'], priority: 5 },
          { name: 'broken', type: 'openai-chat', baseUrl: `${broken.origin}/v1`, apiKey: 'sk-upstream-broken', models: ['fall-*'], priority: 10, settings: { completionsEndpoint: true } },
          {
            name: 'vllm',
            type: 'openai-chat',
            baseUrl: `${native.origin}/v1`,
            apiKey: 'sk-upstream-vllm',
            models: ['instruct-*', 'mapped-instruct', 'both-*'],
            modelMapping: { 'mapped-instruct': 'instruct-upstream' },
            settings: { completionsEndpoint: true },
          },
        ],
        keys: [
          { name: 'client', key: KEY },
          { name: 'limited', key: LIMITED_KEY, rpm: 1 },
        ],
        prices: { 'sim-*': { input: 2, output: 10 }, 'claude-*': { input: 3, output: 15 }, 'instruct-*': { input: 1, output: 4 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await anthropic?.close();
    await native?.close();
    await broken?.close();
  });

  describe('simulator (translated)', () => {
    it('answers a text_completion, logged and priced under the completions family', async () => {
      const answer = await client.completions.create({ model: 'sim-plain', prompt: 'Write a line about the sea', max_tokens: 20 });
      expect(answer.object).toBe('text_completion');
      expect(answer.id).toMatch(/^cmpl-/);
      expect(answer.model).toBe('sim-plain');
      expect(answer.choices).toHaveLength(1);
      expect(answer.choices[0]).toMatchObject({ index: 0, logprobs: null });
      expect(answer.choices[0].text.length).toBeGreaterThan(0);
      expect(['stop', 'length']).toContain(answer.choices[0].finish_reason);
      const usage = answer.usage!;
      expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
      const row = await logFor('sim-plain');
      expect(row).toMatchObject({ family: 'completions', httpStatus: 200, inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, estimated: false });
      expect(row.cost).toBeCloseTo((usage.prompt_tokens * 2 + usage.completion_tokens * 10) / 1_000_000, 12);
      const metrics = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminKey}` } })).text();
      expect(metrics).toMatch(
        /gen_ai_client_operation_duration_seconds_count\{gen_ai_operation_name="text_completion",family="completions",gen_ai_request_model="sim-plain",channel="[^"]+",status="200"\} 1/,
      );
    });

    it('streams text deltas, the usage chunk when asked, then [DONE]', async () => {
      const stream = await client.completions.create({ model: 'sim-stream', prompt: ['Tell me a story'], stream: true, stream_options: { include_usage: true } });
      let text = '';
      const chunks: OpenAI.Completion[] = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        text += chunk.choices[0]?.text ?? '';
      }
      expect(text.length).toBeGreaterThan(0);
      expect(chunks.every((chunk) => chunk.object === 'text_completion' && chunk.id === chunks[0].id)).toBe(true);
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage!.completion_tokens).toBeGreaterThan(0);
      expect(chunks.at(-2)!.choices[0].finish_reason).not.toBeNull();
      const row = await logFor('sim-stream');
      expect(row).toMatchObject({ family: 'completions', stream: true, outputTokens: last.usage!.completion_tokens });
    });
  });

  describe('anthropic channel (translated)', () => {
    it('sends the prompt as one user turn with the legacy default of 16 tokens', async () => {
      const answer = await client.completions.create({ model: 'claude-plain', prompt: 'Once upon a time', temperature: 0.5, stop: ['\n'] });
      expect(answer.choices[0]).toEqual({ text: 'Hello from Claude.', index: 0, logprobs: null, finish_reason: 'stop' });
      const sent = anthropic.requests.at(-1)!.json<Record<string, any>>();
      expect(sent).toMatchObject({ model: 'claude-plain', max_tokens: 16, temperature: 0.5, stop_sequences: ['\n'] });
      expect(sent.messages).toMatchObject([{ role: 'user', content: [{ type: 'text', text: 'Once upon a time' }] }]);
      expect(sent.system).toBeUndefined();
      // Messages usage: 12 input, 8 cache reads, 2 cache writes; OpenAI's prompt count includes them.
      expect(answer.usage).toEqual({ prompt_tokens: 22, completion_tokens: 6, total_tokens: 28 });
      const row = await logFor('claude-plain');
      expect(row).toMatchObject({ family: 'completions', inputTokens: 12, outputTokens: 6, estimated: false });
      expect(row.cost).toBeGreaterThan(0);
    });

    it('streams the translated answer', async () => {
      const stream = await client.completions.create({ model: 'claude-stream', prompt: 'Once', max_tokens: 40, stream: true });
      let text = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.text ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text).toBe('Hello from Claude.');
      expect(finish).toBe('stop');
      expect(anthropic.requests.at(-1)!.json<Record<string, any>>()).toMatchObject({ max_tokens: 40, stream: true });
      expect(await logFor('claude-stream')).toMatchObject({ family: 'completions', stream: true, outputTokens: 6 });
    });

    it.each([
      ['echo', { echo: true }],
      ['suffix', { suffix: ' the end' }],
      ['logprobs', { logprobs: 2 }],
      ['best_of', { best_of: 3 }],
      ['n', { n: 2 }],
      ['logit_bias', { logit_bias: { '50256': -100 } }],
      ['prompt', { prompt: ['one', 'two'] }],
      ['prompt', { prompt: [1, 2, 3] }],
    ])('refuses %s by name, before any upstream call', async (field, extra) => {
      const before = anthropic.requests.length;
      const error = await client.completions.create({ model: 'claude-refused', prompt: 'x', ...extra } as never).catch((e) => e);
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ param: field, type: 'invalid_request_error' });
      expect(error.message).toContain(`${field} is not supported`);
      expect(anthropic.requests.length).toBe(before);
    });
  });

  describe('openai-chat channel with completionsEndpoint (pass-through)', () => {
    it("forwards the client's body to /completions as it is and bills the reported usage", async () => {
      const body = { model: 'instruct-a', prompt: [[1, 2, 3]], echo: true, suffix: '!', logprobs: 1, max_tokens: 7, user: 'u-1', vendor_option: 'kept' };
      const answer = await client.completions.create(body as never);
      expect(answer).toMatchObject({ id: 'cmpl-native01', object: 'text_completion', choices: [{ text: ' native text', finish_reason: 'length' }] });
      expect(answer.choices[0].logprobs!.tokens).toEqual([' native']);
      const seen = native.requests.at(-1)!;
      expect(seen.url).toBe('/v1/completions');
      expect(seen.headers.authorization).toBe('Bearer sk-upstream-vllm');
      expect(seen.json()).toEqual(body);
      const row = await logFor('instruct-a');
      expect(row).toMatchObject({ family: 'completions', inputTokens: 5, outputTokens: 3, estimated: false });
      expect(row.cost).toBeCloseTo((5 * 1 + 3 * 4) / 1_000_000, 12);
    });

    it('streams, asking the usage on the client’s behalf and keeping that chunk from it; the channel’s model name goes upstream', async () => {
      const stream = await client.completions.create({ model: 'mapped-instruct', prompt: 'Go', stream: true });
      const chunks: OpenAI.Completion[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.map((chunk) => chunk.choices[0]?.text)).toEqual([' native', ' stream']);
      expect(chunks.some((chunk) => chunk.usage)).toBe(false);
      const sent = native.requests.at(-1)!.json<Record<string, any>>();
      expect(sent).toMatchObject({ model: 'instruct-upstream', stream: true, stream_options: { include_usage: true } });
      expect(await logFor('mapped-instruct')).toMatchObject({ family: 'completions', inputTokens: 5, outputTokens: 3, estimated: false });
    });
  });

  describe('openai-chat channel with completionsEndpoint: what the client asked for, and upstream errors', () => {
    it('shows the usage chunk to a client that asked for it', async () => {
      const stream = await client.completions.create({ model: 'instruct-usage', prompt: 'Go', stream: true, stream_options: { include_usage: true } });
      const chunks: OpenAI.Completion[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } });
      expect(native.requests.at(-1)!.json()).toEqual({ model: 'instruct-usage', prompt: 'Go', stream: true, stream_options: { include_usage: true } });
    });

    it("keeps an upstream refusal's own code and param, in the OpenAI shape", async () => {
      const error = await client.completions.create({ model: 'instruct-too-long', prompt: 'Go' }).catch((e) => e);
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded', param: 'prompt' });
      expect(JSON.stringify(error.error)).not.toContain('sk-upstream');
    });
  });

  describe('routing', () => {
    it('falls over from a failing pass-through channel to a translated one', async () => {
      const answer = await client.completions.create({ model: 'fall-a', prompt: 'Once' });
      expect(answer.choices[0].text).toBe('Hello from Claude.');
      expect(broken.requests.at(-1)!.url).toBe('/v1/completions');
      expect(anthropic.requests.at(-1)!.json<Record<string, any>>().model).toBe('fall-a');
      expect(await logFor('fall-a')).toMatchObject({ family: 'completions', httpStatus: 200 });
    });

    it('skips a translated channel that would refuse, for one that serves the field natively', async () => {
      const before = anthropic.requests.length;
      const answer = await client.completions.create({ model: 'both-a', prompt: 'Once', echo: true });
      expect(answer.choices[0].text).toBe(' native text');
      expect(native.requests.at(-1)!.json()).toMatchObject({ model: 'both-a', echo: true });
      expect(anthropic.requests.length).toBe(before);
      // Without the field the higher-priority translated channel serves.
      expect((await client.completions.create({ model: 'both-a', prompt: 'Once' })).choices[0].text).toBe('Hello from Claude.');
    });
  });

  describe('bad input', () => {
    it('answers 400 in the OpenAI shape, naming the field', async () => {
      const hot = await client.completions.create({ model: 'sim-x', prompt: 'x', temperature: 3 }).catch((e) => e);
      expect(hot.status).toBe(400);
      expect(hot.error).toMatchObject({ param: 'temperature', type: 'invalid_request_error' });
      const missing = await client.completions.create({ model: 'sim-x' } as never).catch((e) => e);
      expect(missing.status).toBe(400);
      expect(missing.error.param).toBe('prompt');
      const empty = await client.completions.create({ model: 'sim-x', prompt: [] }).catch((e) => e);
      expect(empty.error.param).toBe('prompt');
      const options = await client.completions.create({ model: 'sim-x', prompt: 'x', stream_options: { include_usage: true } }).catch((e) => e);
      expect(options.error.param).toBe('stream_options');
    });

    it("answers 429 past the key's rate limit", async () => {
      const limited = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: LIMITED_KEY, maxRetries: 0 });
      await limited.completions.create({ model: 'sim-limited', prompt: 'x' });
      const error = await limited.completions.create({ model: 'sim-limited', prompt: 'x' }).catch((e) => e);
      expect(error.status).toBe(429);
      expect(error.error.type).toBe('rate_limit_error');
    });

    it('answers 404 for a model no channel serves, and 401 without a key', async () => {
      const unknown = await client.completions.create({ model: 'nobody-serves-this', prompt: 'x' }).catch((e) => e);
      expect(unknown.status).toBe(404);
      expect(unknown.error.type).toBe('invalid_request_error');
      const anonymous = await fetch(`${gw.url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sim-x', prompt: 'x' }) });
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as any).error.type).toBe('invalid_request_error');
    });
  });
});
