/**
 * opencode through every upstream type: its recorded Chat Completions bodies
 * (test/fixtures/agents/opencode-1.18.33, sent by `@ai-sdk/openai-compatible`)
 * replayed as it sends them, streamed with `stream_options.include_usage`, to
 * an openai-chat channel (pass-through: the body arrives untouched) and to the
 * simulator, anthropic, gemini and openai-responses channels (translated).
 * The stream must read the way the ai SDK reads it: one id, the role first,
 * tool-call deltas with an index, a finish reason, the usage chunk, [DONE].
 * The `cache_control` marks opencode puts on Claude models' messages are
 * named as ignored in `x-switchyard-translation` on translated paths.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_ARGS, SHELL_TOOL, startAgentUpstreams, type AgentUpstreams } from './agent-upstreams.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const CLIENT_KEY = 'sk-client-opencode';
const DIR = new URL('../fixtures/agents/opencode-1.18.33/', import.meta.url);
type Json = Record<string, any>;
const recorded = (file: string) => JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { headers: Record<string, string>; body: Json };

/** Per recorded model: the title request, the plain turn, the tool loop's two turns. */
const FILES = {
  'gpt-5.5': { title: '01-gpt-5.5-plain-extra-title.json', plain: '02-gpt-5.5-plain-turn.json', first: '04-gpt-5.5-tool-first-turn.json', result: '05-gpt-5.5-tool-result-turn.json' },
  'claude-sonnet-4-5': {
    title: '06-claude-sonnet-4-5-plain-extra-title.json',
    plain: '07-claude-sonnet-4-5-plain-turn.json',
    first: '09-claude-sonnet-4-5-tool-first-turn.json',
    result: '10-claude-sonnet-4-5-tool-result-turn.json',
  },
} as const;
const RECORDED = Object.entries(FILES).map(([model, files]) => ({ model, files }));

let fakes: AgentUpstreams;
let gw: TestGateway;

beforeAll(async () => {
  fakes = await startAgentUpstreams();
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        { name: 'chat', type: 'openai-chat', baseUrl: `${fakes.openaiChat.origin}/v1`, apiKey: 'sk-chat-upstream', models: ['chat-*'] },
        { name: 'anthropic', type: 'anthropic', baseUrl: fakes.anthropic.origin, apiKey: 'sk-ant-upstream', models: ['claude-*'] },
        { name: 'gemini', type: 'gemini', baseUrl: fakes.gemini.origin, apiKey: 'AIza-upstream', models: ['gem-*'] },
        { name: 'responses', type: 'openai-responses', baseUrl: `${fakes.openaiResponses.origin}/v1`, apiKey: 'sk-resp-upstream', models: ['resp-*'] },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await fakes?.close();
});

/** Sends a recorded body to `model` the way opencode does and reads the stream as its SDK would. */
async function replay(file: string, model: string) {
  const { headers, body: recordedBody } = recorded(file);
  const body = { ...recordedBody, model };
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}`, 'user-agent': headers['user-agent'], 'x-session-id': headers['x-session-id'] },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6));
  const chunks: Json[] = data.filter((line) => line !== '[DONE]').map((line) => JSON.parse(line));
  const deltas = chunks.flatMap((chunk) => (chunk.choices ?? []).map((choice: Json) => choice.delta ?? {}));
  const content = deltas.map((delta) => delta.content ?? '').join('');
  const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
  for (const delta of deltas) {
    for (const call of delta.tool_calls ?? []) {
      expect(typeof call.index).toBe('number');
      const entry = calls.get(call.index) ?? { arguments: '' };
      entry.id ??= call.id;
      entry.name ??= call.function?.name;
      entry.arguments += call.function?.arguments ?? '';
      calls.set(call.index, entry);
    }
  }
  const finish = chunks.flatMap((chunk) => (chunk.choices ?? []).map((choice: Json) => choice.finish_reason)).filter(Boolean);
  return { res, text, body, data, chunks, deltas, content, calls: [...calls.values()], finish, translation: res.headers.get('x-switchyard-translation') };
}

/** What every stream opencode reads must hold, whichever upstream answered. */
function expectReadableStream(result: Awaited<ReturnType<typeof replay>>, file: string) {
  expect(result.res.status, `${file}: ${result.text.slice(0, 300)}`).toBe(200);
  expect(result.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(result.data.at(-1)).toBe('[DONE]');
  expect(new Set(result.chunks.map((chunk) => chunk.id)).size).toBe(1);
  expect(result.chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
  expect(result.deltas[0]?.role).toBe('assistant');
  expect(result.finish).toHaveLength(1);
  // The client asked for usage: the last chunk carries it, with no choices.
  const last = result.chunks.at(-1)!;
  expect(last.choices).toEqual([]);
  expect(last.usage.prompt_tokens).toBeGreaterThan(0);
  expect(last.usage.total_tokens).toBe(last.usage.prompt_tokens + last.usage.completion_tokens);
}

describe.each(RECORDED)('opencode ($model) request bodies', ({ model: recordedModel, files }) => {
  const cacheMarks = recordedModel.startsWith('claude');

  it('pass through to an openai-chat channel untouched, and its stream comes back whole', async () => {
    for (const file of Object.values(files)) {
      const result = await replay(file, 'chat-opencode');
      expectReadableStream(result, file);
      expect(result.translation).toBeNull();
      const seen = fakes.openaiChat.requests.at(-1)!;
      expect(seen.json(), file).toEqual(result.body);
      expect(seen.headers.authorization).toBe('Bearer sk-chat-upstream');
    }
  });

  it.each(['claude-opencode', 'gem-opencode', 'resp-opencode'])('translate to %s: text, one shell call, the result turn', async (model) => {
    for (const file of [files.title, files.plain]) {
      const result = await replay(file, model);
      expectReadableStream(result, file);
      expect(result.content).toBe('Hello from the scripted upstream.');
      expect(result.finish).toEqual(['stop']);
    }
    const first = await replay(files.first, model);
    // opencode marks Claude models' messages with cache_control: each upstream's prompt cache takes the marks.
    if (cacheMarks) expect(first.translation).toMatch(/mapped=(\S+,)?cache_control\b/);
    else expect(first.translation ?? '').not.toContain('cache_control');
    if (cacheMarks && model === 'claude-opencode') expect(fakes.anthropic.requests.at(-1)!.body.toString()).toContain('"cache_control"');
    expectReadableStream(first, files.first);
    expect(first.calls).toHaveLength(1);
    expect(first.calls[0]!.name).toBe(SHELL_TOOL);
    expect(first.calls[0]!.id).toEqual(expect.any(String));
    expect(JSON.parse(first.calls[0]!.arguments)).toEqual(SHELL_ARGS);
    expect(first.finish).toEqual(['tool_calls']);
    const result = await replay(files.result, model);
    expectReadableStream(result, files.result);
    expect(result.content).toBe('The command printed SWITCHYARD_TOOL_OK.');
  });

  it("run on the simulator: the tool turn calls opencode's bash tool, the result turn ends the loop", async () => {
    const plain = await replay(files.plain, 'sim-opencode');
    expectReadableStream(plain, files.plain);
    expect(plain.content.length).toBeGreaterThan(0);
    expect(plain.translation ?? '').toContain(cacheMarks ? 'cache_control' : '');
    const first = await replay(files.first, 'sim-opencode');
    expectReadableStream(first, files.first);
    expect(first.calls.map((call) => call.name)).toEqual(['bash']);
    expect(JSON.parse(first.calls[0]!.arguments).command).toContain('echo SWITCHYARD_TOOL_OK');
    expect(first.finish).toEqual(['tool_calls']);
    const result = await replay(files.result, 'sim-opencode');
    expectReadableStream(result, files.result);
    expect(result.calls).toEqual([]);
    expect(result.content).toContain('SWITCHYARD_TOOL_OK');
  });
});
