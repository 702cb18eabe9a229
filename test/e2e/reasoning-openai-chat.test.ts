/**
 * Reasoning state of openai-chat upstreams through other dialects' clients.
 *
 * An OpenRouter-style upstream answers with `reasoning_details` (a signed
 * thought and a Gemini call's encrypted state naming the call); a Messages
 * client replaying its history gets them back to that upstream verbatim.
 *
 * A DeepSeek-style upstream on an openai-chat channel: in thinking mode it
 * answers with `reasoning_content` beside its tool calls and refuses a
 * tool-loop turn whose assistant message lost it. A Messages client (a
 * translated path) gets the reasoning as a thinking block and, on a channel
 * set with `reasoningContent: true`, the upstream gets it back on the next
 * turn; a Chat Completions client (the native path) has its body passed on
 * untouched, `reasoning_details` and `reasoning_content` included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

type Json = Record<string, any>;
const KEY = 'sk-client-deepseek';
const THOUGHT = 'The user wants the weather; call the tool.';

const OPENROUTER_DETAILS = [
  { type: 'reasoning.text', text: THOUGHT, signature: 'c2lnbmVkLXRob3VnaHQ=', format: 'anthropic-claude-v1', index: 0 },
  { type: 'reasoning.encrypted', data: 'Z2VtaW5pLWNhbGwtc2lnbmF0dXJl', id: 'call_0', format: 'google-gemini-v1', index: 1 },
];

function openrouterReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ messages: Json[]; stream?: boolean }>();
  const answered = body.messages.some((message) => message.role === 'tool');
  const call = { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const message = answered ? { role: 'assistant', content: 'Sunny.' } : { role: 'assistant', content: null, reasoning: THOUGHT, reasoning_details: OPENROUTER_DETAILS, tool_calls: [call] };
  const finish = answered ? 'stop' : 'tool_calls';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!body.stream) {
    const reply = { id: 'gen-1', object: 'chat.completion', created: 1, model: 'google/gemini-3-pro-preview', choices: [{ index: 0, message, finish_reason: finish }], usage };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply) };
  }
  // Streamed as OpenRouter does: the thought in pieces of one entry, the signature last, the call's state after the call.
  const chunk = (delta: Json, finishReason: string | null = null, extra: Json = {}) =>
    `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'google/gemini-3-pro-preview', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
  const chunks = answered
    ? [chunk({ role: 'assistant', content: 'Sunny.' }), chunk({}, 'stop', { usage })]
    : [
        chunk({ role: 'assistant', reasoning: THOUGHT.slice(0, 10), reasoning_details: [{ type: 'reasoning.text', text: THOUGHT.slice(0, 10), format: 'anthropic-claude-v1', index: 0 }] }),
        chunk({ reasoning: THOUGHT.slice(10), reasoning_details: [{ type: 'reasoning.text', text: THOUGHT.slice(10), format: 'anthropic-claude-v1', index: 0 }] }),
        chunk({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: OPENROUTER_DETAILS[0].signature, format: 'anthropic-claude-v1', index: 0 }] }),
        chunk({ tool_calls: [{ index: 0, ...call }] }),
        chunk({ reasoning_details: [OPENROUTER_DETAILS[1]] }),
        chunk({}, 'tool_calls', { usage }),
      ];
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [...chunks, 'data: [DONE]\n\n'] };
}

function deepseekReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ messages: Json[]; model: string }>();
  if (body.model === 'openrouter-model') return openrouterReply(request);
  const answered = body.messages.some((message) => message.role === 'tool');
  const lost = body.messages.some((message) => message.role === 'assistant' && message.tool_calls && typeof message.reasoning_content !== 'string');
  if (lost) {
    const error = { error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error' } };
    return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify(error) };
  }
  const message = answered
    ? { role: 'assistant', content: 'Sunny.', reasoning_content: 'Answer now.' }
    : { role: 'assistant', content: null, reasoning_content: THOUGHT, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] };
  const reply = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek-v4-pro',
    choices: [{ index: 0, message, finish_reason: answered ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply) };
}

let upstream: FakeUpstream;
let gw: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(deepseekReply);
  const channel = { type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-deepseek' };
  gw = await startGateway({
    config: {
      channels: [
        { ...channel, name: 'deepseek', models: ['deepseek-v4-pro'], settings: { reasoningContent: true } },
        { ...channel, name: 'plain', models: ['plain-chat'] },
        { ...channel, name: 'openrouter', models: ['openrouter-model'] },
      ],
      keys: [{ name: 'client', key: KEY }],
    },
  });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

async function post(path: string, body: Json, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

const MESSAGES_HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];

async function messagesLoop(model: string) {
  const question = { role: 'user', content: 'Weather in Paris?' };
  const body = { model, max_tokens: 4000, tools, thinking: { type: 'enabled', budget_tokens: 1024 } };
  const first = await post('/v1/messages', { ...body, messages: [question] }, MESSAGES_HEADERS);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  return replayMessages(body, question, first);
}

async function replayMessages(body: Json, question: Json, first: { body: Json }) {
  const call = first.body.content.find((block: Json) => block.type === 'tool_use');
  const history = [question, { role: 'assistant', content: first.body.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] }];
  return { first, second: await post('/v1/messages', { ...body, messages: history }, MESSAGES_HEADERS) };
}

/** A streamed Messages answer folded into its content blocks, as Claude Code keeps them. */
async function streamedMessages(body: Json): Promise<Json[]> {
  const response = await fetch(`${gw.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...MESSAGES_HEADERS }, body: JSON.stringify({ ...body, stream: true }) });
  expect(response.status).toBe(200);
  const blocks: Json[] = [];
  for (const match of (await response.text()).matchAll(/^data: (\{.*\})$/gm)) {
    const event = JSON.parse(match[1]);
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block };
    if (event.type !== 'content_block_delta') continue;
    const block = blocks[event.index];
    if (event.delta.type === 'thinking_delta') block.thinking += event.delta.thinking;
    if (event.delta.type === 'signature_delta') block.signature += event.delta.signature;
    if (event.delta.type === 'input_json_delta') block.input = JSON.parse(event.delta.partial_json);
    if (event.delta.type === 'text_delta') block.text += event.delta.text;
  }
  return blocks;
}

describe('OpenRouter-style reasoning_details from an openai-chat channel', () => {
  const lastAssistant = () =>
    upstream.requests
      .at(-1)!
      .json<{ messages: Json[] }>()
      .messages.find((message) => message.role === 'assistant')!;

  it('a Messages client sees the thought, and the upstream gets its entries back verbatim', async () => {
    const { first, second } = await messagesLoop('openrouter-model');
    expect(first.body.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: '' });
    expect(JSON.stringify(first.body)).not.toContain(OPENROUTER_DETAILS[1].data);
    expect(second.status).toBe(200);
    expect(lastAssistant().reasoning_details).toEqual(OPENROUTER_DETAILS);
  });

  it('streamed: pieces of one entry are joined, and the entries still come back whole', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    const body = { model: 'openrouter-model', max_tokens: 4000, tools, thinking: { type: 'enabled', budget_tokens: 1024 } };
    const content = await streamedMessages({ ...body, messages: [question] });
    const { second } = await replayMessages(body, question, { body: { content } });
    expect(second.status).toBe(200);
    expect(lastAssistant().reasoning_details).toEqual(OPENROUTER_DETAILS);
  });
});

describe('DeepSeek-style reasoning_content on an openai-chat channel', () => {
  it('a Messages client sees the reasoning, and the channel set for it gets it back on the tool-result turn', async () => {
    const { first, second } = await messagesLoop('deepseek-v4-pro');
    expect(first.body.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: '' });
    expect(second.status).toBe(200);
    const assistant = upstream.requests
      .at(-1)!
      .json<{ messages: Json[] }>()
      .messages.find((message) => message.role === 'assistant')!;
    expect(assistant.reasoning_content).toBe(THOUGHT);
  });

  it('a channel not set for it sends none (servers that refuse the field), so this upstream refuses the turn', async () => {
    const { second } = await messagesLoop('plain-chat');
    expect(second.status).toBe(400);
    expect(JSON.stringify(second.body)).toContain('reasoning_content');
  });

  it('a Chat Completions client on the native path: reasoning fields pass untouched', async () => {
    const assistant = {
      role: 'assistant',
      content: null,
      reasoning_content: THOUGHT,
      reasoning_details: [{ type: 'reasoning.text', text: THOUGHT, format: 'unknown', index: 0 }],
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    };
    const messages = [{ role: 'user', content: 'Weather in Paris?' }, assistant, { role: 'tool', tool_call_id: 'call_0', content: 'sunny' }];
    const answer = await post('/v1/chat/completions', { model: 'deepseek-v4-pro', messages }, { authorization: `Bearer ${KEY}` });
    expect(answer.status).toBe(200);
    expect(answer.body.choices[0].message.reasoning_content).toBe('Answer now.');
    expect(upstream.requests.at(-1)!.json<{ messages: Json[] }>().messages[1]).toEqual(assistant);
  });
});
