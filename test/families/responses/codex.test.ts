/**
 * Codex CLI 0.169.0's real requests (test/fixtures/agents/codex-0.169.0, recorded
 * from the CLI) through validation, to-core, and the translation plan and
 * request conversion of every upstream type, without refusal; and the answer's
 * tool calls rendered under Codex's own names (namespaced functions, custom
 * tools), plain and streamed, then read back when Codex replays them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest, ChatResponse } from '../../../src/core/chat.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { responseToEvents } from '../../../src/core/stream-fold.js';
import { describePlan } from '../../../src/core/translation-plan.js';
import { currentItems } from '../../../src/families/responses/conversation.js';
import { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { emptyHistory } from '../../../src/families/responses/history.js';
import { inputAsItems } from '../../../src/families/responses/items.js';
import { ResponsesStreamEncoder } from '../../../src/families/responses/stream-encoder.js';
import { responsesToCore } from '../../../src/families/responses/to-core.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { ResponseRepository } from '../../../src/storage/responses.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { toChatCompletionRequest } from '../../../src/upstreams/protocols/chat-completions/convert-request.js';
import { toResponsesRequest } from '../../../src/upstreams/protocols/responses/convert-request.js';
import { defaultAdapters } from '../../../src/upstreams/registry.js';
import { simulateAnswer } from '../../../src/upstreams/simulator/answer.js';
import { parseSse } from './support.js';
import { planOf } from '../../upstreams/support/call.js';

type Body = Record<string, any>;

const fixture = (file: string): Body => JSON.parse(readFileSync(new URL(`../../fixtures/agents/codex-0.169.0/${file}`, import.meta.url), 'utf8')).body;

const files = readdirFixtures();
function readdirFixtures(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../fixtures/agents/codex-0.169.0/manifest.json', import.meta.url), 'utf8'));
  return manifest.files.map((entry: { file: string }) => entry.file);
}

const converters: Record<string, (core: ChatRequest) => unknown> = {
  simulator: (core) => simulateAnswer(core, 'sim'),
  anthropic: (core) => toMessagesRequest(core, 'claude-x'),
  gemini: (core) => toGeminiRequest(core, 'gemini-x'),
  'openai-chat': (core) => toChatCompletionRequest(core, 'gpt-x'),
  'openai-responses': (core) => toResponsesRequest(core, 'gpt-x'),
};

const repository = { save: async () => undefined } as unknown as ResponseRepository;

/** Validates and converts like the route does, the exchange holding the tool names for rendering. */
function translate(body: Body): { core: ChatRequest; exchange: ResponsesExchange } {
  const request = parseResponsesRequest(body);
  const current = currentItems(inputAsItems(request.input), emptyHistory);
  const exchange = new ResponsesExchange({
    request,
    keyId: 'k',
    history: emptyHistory,
    current,
    repository,
    onRecordError: (error) => {
      throw error;
    },
    sealer: new ReasoningSealer(Buffer.alloc(32, 5)),
  });
  const core = responsesToCore(request, current, { toolNames: exchange.toolNames });
  return { core, exchange };
}

/** The tool-result turn with the encrypted reasoning Codex replays when `store` is false. */
function withReasoning(body: Body): Body {
  const input = [...body.input];
  const call = input.findIndex((item: Body) => item.type === 'function_call' || item.type === 'custom_tool_call');
  input.splice(call, 0, { type: 'reasoning', id: 'rs_0123', summary: [{ type: 'summary_text', text: 'Run the command.' }], content: null, encrypted_content: 'gAAAAABpZ3Rlc3Q=' });
  return { ...body, input };
}

describe('Codex 0.169.0 requests on every upstream type', () => {
  for (const file of files) {
    it(`${file}: validates, converts and is planned and converted without refusal`, async () => {
      const body = file.includes('result-turn') ? withReasoning(fixture(file)) : fixture(file);
      const { core } = translate(body);
      expect(core.features).toBeUndefined();
      expect(core.hints).toMatchObject({ client_metadata: expect.any(Object) });
      expect(core.cache).toEqual({ key: expect.any(String) });
      const adapters = await defaultAdapters();
      for (const [type, convert] of Object.entries(converters)) {
        const plan = planOf(adapters.get(type), core, { strict: false, settings: {} });
        expect(plan.refusal, `${type}: ${plan.refusal?.message}`).toBeUndefined();
        expect(describePlan(plan)).toContain('client_metadata');
        expect(() => convert(core)).not.toThrow();
      }
    });
  }

  it('flattens namespaces, turns custom tools into one-string functions, maps web search, leaves out client tool search', () => {
    const { core } = translate(fixture('05-gpt-5.5-tool-first-turn.json'));
    const names = (core.tools ?? []).map((tool) => (tool.type === 'function' ? tool.name : `builtin ${tool.kind} ${tool.capability ?? '-'}`));
    expect(names).toEqual(expect.arrayContaining(['exec_command', 'apply_patch', 'builtin web_search web_search', 'builtin tool_search -']));
    const patch = core.tools?.find((tool) => tool.type === 'function' && tool.name === 'apply_patch');
    expect(patch).toMatchObject({ parameters: { type: 'object', required: ['input'], properties: { input: { type: 'string' } } } });
    expect(JSON.stringify(patch)).toContain('*** Begin Patch');

    const codex = translate(fixture('08-gpt-5.1-codex-tool-first-turn.json')).core;
    const spawn = codex.tools?.find((tool) => tool.type === 'function' && tool.name === 'multi_agent_v1__spawn_agent');
    expect(spawn?.type === 'function' && spawn.description?.startsWith(fixture('08-gpt-5.1-codex-tool-first-turn.json').tools.find((t: Body) => t.type === 'namespace').description)).toBe(true);
    expect(codex.system).toContain('You are a coding agent running in the Codex CLI');
    expect(codex.messages.every((message) => message.role !== 'system')).toBe(true);
  });

  it("takes the newest model's tools from its additional_tools item", () => {
    const { core } = translate(fixture('02-gpt-6.1-sol-tool-first-turn.json'));
    const names = (core.tools ?? []).map((tool) => (tool.type === 'function' ? tool.name : tool.kind));
    expect(names).toEqual(expect.arrayContaining(['exec', 'wait', 'clock__sleep', 'collaboration__spawn_agent']));
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(core.hints).toMatchObject({ 'reasoning.context': 'all_turns', 'text.verbosity': 'low' });
  });
});

const usage = { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 };
const answer = (...content: ChatResponse['content']): ChatResponse => ({ id: 'up', model: 'm', content, finishReason: 'tool_use', usage });

async function streamed(exchange: ResponsesExchange, response: ChatResponse): Promise<Array<{ event?: string; data: Body }>> {
  const encoder = new ResponsesStreamEncoder(exchange);
  let out = '';
  for (const event of responseToEvents(response) as Iterable<ChatEvent>) out += await encoder.encode(event);
  return parseSse(out);
}

describe("tool calls under Codex's own names", () => {
  const spawn = { type: 'tool_call' as const, id: 'call_1', name: 'multi_agent_v1__spawn_agent', input: { message: 'go' } };

  it('a namespaced function call gets its namespace back, plain and streamed, and reads back when replayed', async () => {
    const body = fixture('08-gpt-5.1-codex-tool-first-turn.json');
    const { exchange } = translate(body);
    const plain = await exchange.completePlain(answer(spawn));
    expect(plain.output[0]).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent', call_id: 'call_1', arguments: '{"message":"go"}' });

    const events = await streamed(translate(body).exchange, answer(spawn));
    const added = events.find((e) => e.event === 'response.output_item.added')!.data.item;
    expect(added).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent', status: 'in_progress', arguments: '' });
    expect(
      events
        .filter((e) => e.event === 'response.function_call_arguments.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('{"message":"go"}');
    expect(events.find((e) => e.event === 'response.function_call_arguments.done')!.data).toMatchObject({ name: 'spawn_agent', arguments: '{"message":"go"}' });
    expect(events.find((e) => e.event === 'response.output_item.done')!.data.item).toMatchObject({ namespace: 'multi_agent_v1', name: 'spawn_agent', status: 'completed' });

    const replay = { ...body, input: [...body.input, plain.output[0], { type: 'function_call_output', call_id: 'call_1', output: 'spawned' }] };
    const next = translate(replay).core;
    expect(next.messages.at(-2)?.content).toEqual([spawn]);
  });

  it('a custom tool call is a custom_tool_call with the raw input, plain and streamed, and reads back when replayed', async () => {
    const body = fixture('02-gpt-6.1-sol-tool-first-turn.json');
    const exec = { type: 'tool_call' as const, id: 'call_2', name: 'exec', input: { input: 'text(await tools.exec_command({cmd: "ls"}));' } };
    const collaboration = { type: 'tool_call' as const, id: 'call_3', name: 'collaboration__list_agents', input: {} };
    const { exchange } = translate(body);
    const plain = await exchange.completePlain(answer(exec, collaboration));
    expect(plain.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'exec', call_id: 'call_2', input: exec.input.input, status: 'completed' });
    expect(plain.output[0]).not.toHaveProperty('namespace');
    expect(plain.output[1]).toMatchObject({ type: 'function_call', namespace: 'collaboration', name: 'list_agents' });

    const events = await streamed(translate(body).exchange, answer(exec));
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['response.output_item.added', 'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done', 'response.output_item.done']),
    );
    expect(events.find((e) => e.event === 'response.custom_tool_call_input.done')!.data.input).toBe(exec.input.input);
    expect(events.find((e) => e.event === 'response.output_item.done')!.data.item).toMatchObject({ type: 'custom_tool_call', name: 'exec', input: exec.input.input });

    const replay = { ...body, input: [...body.input, plain.output[0], { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'a.txt' }] }] };
    const next = translate(replay).core;
    expect(next.messages.at(-2)?.content).toEqual([exec]);
    expect(next.messages.at(-1)?.content).toEqual([{ type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'a.txt' }] }]);
  });
});
