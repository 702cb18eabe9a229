/**
 * Codex CLI 0.169.0's requests (recorded fixtures) sent with the official
 * `openai` client through the gateway to every upstream type: translated to
 * the simulator and to fakes of the Messages, chat-completions and
 * content-generation APIs (200, the translation header naming what was
 * ignored, tool calls under Codex's own names), and passed through to an
 * openai-responses fake, which receives the client's body untouched.
 */
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexFake, FAKE_TEXT } from '../families/responses/codex-fakes.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

type Body = Record<string, any>;

const fixture = (file: string): Body => JSON.parse(readFileSync(new URL(`../fixtures/agents/codex-0.169.0/${file}`, import.meta.url), 'utf8')).body;

let fakes: FakeUpstream;
let native: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

const completed = {
  id: 'resp_native',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-native',
  output: [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'native', annotations: [] }] }],
  usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 6 },
};

beforeAll(async () => {
  fakes = await startFakeUpstream(codexFake);
  native = await startFakeUpstream(() => ({
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: [
      `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...completed, status: 'in_progress', output: [], usage: null } })}\n\n`,
      `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response: completed })}\n\n`,
    ],
  }));
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        { name: 'claude', type: 'anthropic', baseUrl: fakes.origin, apiKey: 'sk-up', models: ['claude-*'] },
        { name: 'chat', type: 'openai-chat', baseUrl: `${fakes.origin}/v1`, apiKey: 'sk-up', models: ['chat-*'] },
        { name: 'gemini', type: 'gemini', baseUrl: fakes.origin, apiKey: 'sk-up', models: ['gemini-*'] },
        { name: 'native', type: 'openai-responses', baseUrl: `${native.origin}/v1`, apiKey: 'sk-up', models: ['gpt-*'] },
      ],
      keys: [{ name: 'codex', key: 'sk-client-codex' }],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-codex', maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await fakes?.close();
  await native?.close();
});

/** Streams a Codex body as the CLI does; returns the final response object and the translation header. */
async function streamCodex(body: Body, model: string): Promise<{ response: Body; translation: string | null; events: string[] }> {
  const { data, response } = await client.responses.create({ ...body, model, stream: true } as never).withResponse();
  expect(response.status).toBe(200);
  const events: string[] = [];
  let final: Body | undefined;
  for await (const event of data as unknown as AsyncIterable<Body>) {
    events.push(event.type);
    if (event.type === 'response.completed') final = event.response;
  }
  expect(final, events.join(' ')).toBeDefined();
  return { response: final!, translation: response.headers.get('x-switchyard-translation'), events };
}

describe('Codex through translating upstreams', () => {
  for (const model of ['claude-x', 'chat-x', 'gemini-x']) {
    it(`${model}: the newest model's shape (additional_tools, custom exec tool) and a tool-result turn`, async () => {
      const first = await streamCodex(fixture('02-gpt-6.1-sol-tool-first-turn.json'), model);
      expect(first.translation).toMatch(/ignored=.*client_metadata/);
      // Codex's cache key: the same field on a chat-completions upstream, the upstream's own prompt cache elsewhere.
      if (model === 'chat-x') expect(fakes.requests.findLast((r) => r.url.endsWith('/chat/completions'))!.json()).toHaveProperty('prompt_cache_key', expect.any(String));
      else expect(first.translation).toMatch(/mapped=.*prompt_cache_key/);
      const call = first.response.output.find((item: Body) => item.type === 'custom_tool_call');
      expect(call).toMatchObject({ type: 'custom_tool_call', name: 'exec', input: 'text("ok")', status: 'completed' });
      expect(first.events).toContain('response.custom_tool_call_input.done');

      const result = fixture('03-gpt-6.1-sol-tool-result-turn.json');
      const second = await streamCodex(result, model);
      expect(second.response.output.at(-1)).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: FAKE_TEXT }] });
    });

    it(`${model}: a namespace tool called by its namespace, web_search left out or mapped, plain`, async () => {
      const body = fixture('08-gpt-5.1-codex-tool-first-turn.json');
      const { data, response } = await client.responses.create({ ...body, model, stream: false } as never).withResponse();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-switchyard-translation')).toMatch(/client_metadata/);
      const output = (data as unknown as Body).output;
      expect(output[0]).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent' });
      const sent = fakes.requests.at(-1)!.json<Body>();
      expect(JSON.stringify(sent)).toContain('multi_agent_v1__spawn_agent');
      expect(JSON.stringify(sent)).not.toContain('"namespace"');
    });
  }

  it('simulator: every recorded request is answered', async () => {
    for (const file of ['02-gpt-6.1-sol-tool-first-turn.json', '03-gpt-6.1-sol-tool-result-turn.json', '06-gpt-5.5-tool-result-turn.json', '08-gpt-5.1-codex-tool-first-turn.json']) {
      const { response, translation } = await streamCodex(fixture(file), 'sim-model');
      expect(response.status).toBe('completed');
      expect(translation).toMatch(/client_metadata/);
    }
  });
});

describe('Codex through the openai-responses pass-through', () => {
  it("forwards the client's body untouched, with no translation header", async () => {
    for (const file of ['02-gpt-6.1-sol-tool-first-turn.json', '08-gpt-5.1-codex-tool-first-turn.json']) {
      const body = fixture(file);
      const { translation, response } = await streamCodex(body, 'gpt-native');
      expect(response.output[0].content[0].text).toBe('native');
      expect(translation).toBeNull();
      expect(native.requests.at(-1)!.json()).toEqual({ ...body, model: 'gpt-native', stream: true });
    }
  });
});
