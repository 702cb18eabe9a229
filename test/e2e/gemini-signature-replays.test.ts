/**
 * Gemini 3 thought signatures through every client dialect's replay of its
 * history. A loopback Gemini upstream answers the first turn with recorded
 * Gemini 3 function-call answers (test/fixtures/upstream/gemini: Gemini API
 * and Vertex AI, plain and streamed, one call or parallel calls, arguments
 * whole or in `partialArgs` pieces) and with answers shaped after Google's
 * documentation where none was recorded (a Vertex plain answer, and a
 * signature that arrives after the call on an empty text part). Each client
 * then sends its history back the way real clients do, and the upstream must
 * receive the exact original signature on the first function-call part of
 * the tool-result turn (and none invented on the parallel calls after it),
 * also when the client sent back only the calls (the gateway remembers them).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

type Json = Record<string, any>;
const FIXTURES = new URL('../fixtures/upstream/gemini/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const chunksOf = (name: string): Json[] =>
  fixture(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

const KEY = 'sk-client-signatures';
const LATE_SIGNATURE = 'CiQBjz1rX2xhdGUtc2lnbmF0dXJlLW9uLWFuLWVtcHR5LXRleHQtcGFydA==';

interface Variant {
  name: string;
  model: string;
  stream: boolean;
  /** The first turn's answer: a whole body, or stream chunks. */
  answer: Json | Json[];
}

function firstSignature(answer: Json | Json[]): string {
  for (const chunk of Array.isArray(answer) ? answer : [answer]) for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (part.thoughtSignature) return part.thoughtSignature;
  throw new Error('no signature in the answer');
}

const vertexArgs = chunksOf('google-stream-tool-call-arguments.chunks.txt');
const vertexParallel = chunksOf('google-stream-no-args-tool-call.chunks.txt');
const usage = { promptTokenCount: 20, candidatesTokenCount: 10, thoughtsTokenCount: 40, totalTokenCount: 70 };
const candidate = (parts: Json[], finishReason?: string) => ({ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 });

const VARIANTS: Variant[] = [
  { name: 'Gemini API, plain (recorded)', model: 'gemini-3-pro-preview', stream: false, answer: JSON.parse(fixture('google-tool-call.json')) },
  { name: 'Gemini API, streamed (recorded)', model: 'gemini-3-pro-preview', stream: true, answer: chunksOf('google-tool-call.chunks.txt') },
  { name: 'Vertex AI, streamed partialArgs (recorded)', model: 'gemini-3.1-pro-preview', stream: true, answer: vertexArgs },
  {
    name: 'Vertex AI, plain (the recorded stream folded into one answer)',
    model: 'gemini-3.1-pro-preview',
    stream: false,
    answer: {
      candidates: [candidate([{ functionCall: { name: 'getWeather', args: { location: 'Boston' } }, thoughtSignature: firstSignature(vertexArgs) }], 'STOP')],
      usageMetadata: { ...usage, trafficType: 'ON_DEMAND' },
      modelVersion: 'gemini-3.1-pro-preview',
      createTime: '2026-04-02T17:03:50.399550Z',
      responseId: 'dqHOab6xGLzWodAPkPuViA4',
    },
  },
  { name: 'Vertex AI, streamed parallel calls after a thought (recorded)', model: 'gemini-3-flash-preview', stream: true, answer: vertexParallel },
  {
    name: 'Vertex AI, plain parallel calls (the recorded stream folded)',
    model: 'gemini-3-flash-preview',
    stream: false,
    answer: {
      candidates: [
        candidate(
          [
            { text: 'Reading the theme, then the screens.', thought: true },
            { functionCall: { name: 'read_theme' }, thoughtSignature: firstSignature(vertexParallel) },
            { functionCall: { name: 'read_screen', args: { id: 'A' } } },
            { functionCall: { name: 'read_screen', args: { id: 'B' } } },
          ],
          'STOP',
        ),
      ],
      usageMetadata: { ...usage, trafficType: 'PROVISIONED_THROUGHPUT' },
      modelVersion: 'gemini-3-flash-preview',
      createTime: '2026-05-04T20:01:02.264968Z',
      responseId: '_vr4aYiWEJnYodAPkujX0QM',
    },
  },
  {
    // Google's documentation: a streamed signature may come in a later chunk, on an empty text part.
    name: 'streamed, the signature late on an empty text part (no terminating call)',
    model: 'gemini-3-late-preview',
    stream: true,
    answer: [
      { candidates: [candidate([{ text: 'Let me check.' }])], modelVersion: 'gemini-3-late-preview', responseId: 'late-1' },
      { candidates: [candidate([{ functionCall: { name: 'weather', args: { location: 'Paris' } } }])], modelVersion: 'gemini-3-late-preview', responseId: 'late-1' },
      { candidates: [candidate([{ text: '', thoughtSignature: LATE_SIGNATURE }], 'STOP')], usageMetadata: usage, modelVersion: 'gemini-3-late-preview', responseId: 'late-1' },
    ],
  },
  {
    name: 'plain, the signature on an empty text part after the call',
    model: 'gemini-3-late-preview',
    stream: false,
    answer: {
      candidates: [candidate([{ functionCall: { name: 'weather', args: { location: 'Paris' } } }, { text: '', thoughtSignature: LATE_SIGNATURE }], 'STOP')],
      usageMetadata: usage,
      modelVersion: 'gemini-3-late-preview',
      responseId: 'late-2',
    },
  },
];

const FINAL = { candidates: [candidate([{ text: 'Done.' }], 'STOP')], usageMetadata: usage, responseId: 'final' };

function geminiReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ contents: Array<{ parts: Json[] }> }>();
  const answered = body.contents.some((content) => content.parts.some((part) => part.functionResponse));
  const streamed = request.url.includes(':streamGenerateContent');
  const variant = VARIANTS.find((v) => v.stream === streamed && request.url.includes(`/models/${v.model}:`))!;
  const answer = answered ? (streamed ? [FINAL] : FINAL) : variant.answer;
  if (!streamed) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) };
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: (answer as Json[]).map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`) };
}

let gemini: FakeUpstream;
let gw: TestGateway;

beforeAll(async () => {
  gemini = await startFakeUpstream(geminiReply);
  const models = [...new Set(VARIANTS.map((v) => v.model))];
  gw = await startGateway({
    config: { channels: [{ name: 'gemini', type: 'gemini', baseUrl: gemini.origin, apiKey: 'AIza-upstream', models }], keys: [{ name: 'client', key: KEY }] },
  });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await gemini?.close();
});

/** The function-call parts of the model turn the upstream got on the tool-result turn. */
function replayedCalls(): Json[] {
  const last = gemini.requests.at(-1)!.json<{ contents: Array<{ role: string; parts: Json[] }> }>();
  expect(last.contents.some((content) => content.parts.some((part) => part.functionResponse))).toBe(true);
  const turn = last.contents.find((content) => content.role === 'model')!;
  return turn.parts.filter((part) => part.functionCall);
}

function expectSignatureBack(variant: Variant): void {
  const [first, ...rest] = replayedCalls();
  expect(first.thoughtSignature).toBe(firstSignature(variant.answer));
  for (const call of rest) expect(call.thoughtSignature).toBeUndefined();
}

async function post(path: string, body: Json, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

function sseData(text: string): Json[] {
  return text
    .split(/\n\n/)
    .map((frame) =>
      frame
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined && data !== '[DONE]')
    .map((data) => JSON.parse(data));
}

const anyObject = { type: 'object', properties: {} };
const TOOL_NAMES = ['weather', 'getWeather', 'read_theme', 'read_screen'];

// Responses: the openai SDK appends `response.output`; Codex sends store:false with include.
const RESPONSES_HEADERS = { authorization: `Bearer ${KEY}` };
const responsesTools = TOOL_NAMES.map((name) => ({ type: 'function', name, parameters: anyObject }));
async function responses(variant: Variant, body: Json): Promise<Json> {
  const text = await post('/v1/responses', { model: variant.model, tools: responsesTools, reasoning: { effort: 'low' }, stream: variant.stream, ...body }, RESPONSES_HEADERS);
  if (!variant.stream) return JSON.parse(text);
  return sseData(text).find((event) => event.type === 'response.completed')!.response;
}
const callOutputs = (first: Json) => first.output.filter((item: Json) => item.type === 'function_call').map((item: Json) => ({ type: 'function_call_output', call_id: item.call_id, output: 'ok' }));
const QUESTION = { role: 'user', content: 'Go.' };

// Chat Completions: ai-SDK-like clients keep the assistant message as it came, reasoning_details included.
const chatTools = TOOL_NAMES.map((name) => ({ type: 'function', function: { name, parameters: anyObject } }));
async function chatTurn(variant: Variant, messages: Json[]): Promise<Json> {
  const text = await post('/v1/chat/completions', { model: variant.model, messages, tools: chatTools, reasoning_effort: 'low', stream: variant.stream }, RESPONSES_HEADERS);
  if (!variant.stream) return JSON.parse(text).choices[0].message;
  const message: Json = { role: 'assistant', content: '', tool_calls: [], reasoning_details: [] };
  for (const chunk of sseData(text)) {
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (delta.content) message.content += delta.content;
    for (const detail of delta.reasoning_details ?? []) message.reasoning_details.push(detail);
    for (const call of delta.tool_calls ?? []) {
      message.tool_calls[call.index] ??= { id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } };
      message.tool_calls[call.index].function.arguments += call.function.arguments ?? '';
    }
  }
  return message;
}

// Messages: Claude Code resends the assistant content blocks verbatim.
const MESSAGES_HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const messagesTools = TOOL_NAMES.map((name) => ({ name, input_schema: anyObject }));
async function messagesTurn(variant: Variant, messages: Json[]): Promise<Json[]> {
  const body = { model: variant.model, max_tokens: 2000, tools: messagesTools, thinking: { type: 'enabled', budget_tokens: 1024 }, stream: variant.stream, messages };
  const text = await post('/v1/messages', body, MESSAGES_HEADERS);
  if (!variant.stream) return JSON.parse(text).content;
  const blocks: Json[] = [];
  const partial: string[] = [];
  for (const event of sseData(text)) {
    if (event.type === 'content_block_start') {
      blocks[event.index] = { ...event.content_block };
      partial[event.index] = '';
    } else if (event.type === 'content_block_delta') {
      const block = blocks[event.index];
      const delta = event.delta;
      if (delta.type === 'text_delta') block.text += delta.text;
      else if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      else if (delta.type === 'signature_delta') block.signature += delta.signature;
      else if (delta.type === 'input_json_delta') partial[event.index] += delta.partial_json;
    } else if (event.type === 'content_block_stop' && blocks[event.index].type === 'tool_use') {
      blocks[event.index].input = partial[event.index] === '' ? {} : JSON.parse(partial[event.index]);
    }
  }
  return blocks;
}

describe.each(VARIANTS)('$name', (variant) => {
  it('Responses, the openai SDK appending response.output (stored, no include)', async () => {
    const first = await responses(variant, { input: [QUESTION] });
    expect(JSON.stringify(first)).not.toContain(firstSignature(variant.answer));
    await responses(variant, { input: [QUESTION, ...first.output, ...callOutputs(first)] });
    expectSignatureBack(variant);
  });

  it('Responses, Codex-style: store false with include encrypted_content', async () => {
    const codex = { store: false, include: ['reasoning.encrypted_content'] };
    const first = await responses(variant, { input: [QUESTION], ...codex });
    await responses(variant, { input: [QUESTION, ...first.output, ...callOutputs(first)], ...codex });
    expectSignatureBack(variant);
  });

  it('Responses, store false without include: bare reasoning items (the gateway remembers the calls)', async () => {
    const first = await responses(variant, { input: [QUESTION], store: false });
    await responses(variant, { input: [QUESTION, ...first.output, ...callOutputs(first)], store: false });
    expectSignatureBack(variant);
  });

  it('Responses, previous_response_id and item_reference', async () => {
    const first = await responses(variant, { input: [QUESTION] });
    await responses(variant, { previous_response_id: first.id, input: callOutputs(first) });
    expectSignatureBack(variant);
    const references = first.output.map((item: Json) => ({ type: 'item_reference', id: item.id }));
    await responses(variant, { input: [QUESTION, ...references, ...callOutputs(first)] });
    expectSignatureBack(variant);
  });

  it('Chat Completions, the assistant message sent back with its reasoning_details', async () => {
    const question = { role: 'user', content: 'Go.' };
    const assistant = await chatTurn(variant, [question]);
    expect(assistant.reasoning_details.length).toBeGreaterThan(0);
    expect(JSON.stringify(assistant)).not.toContain(firstSignature(variant.answer));
    const results = assistant.tool_calls.map((call: Json) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
    await chatTurn(variant, [question, assistant, ...results]);
    expectSignatureBack(variant);
  });

  it('Chat Completions, an ai-SDK-style client that sends back only content and tool_calls (the gateway remembers the calls)', async () => {
    const question = { role: 'user', content: 'Go.' };
    const { content, tool_calls } = await chatTurn(variant, [question]);
    const results = tool_calls.map((call: Json) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
    await chatTurn(variant, [question, { role: 'assistant', content: content || null, tool_calls }, ...results]);
    expectSignatureBack(variant);
  });

  it('Messages, a client that sends back only the tool_use blocks (the gateway remembers the calls)', async () => {
    const question = { role: 'user', content: 'Go.' };
    const uses = (await messagesTurn(variant, [question])).filter((block) => block.type === 'tool_use');
    const results = uses.map((block) => ({ type: 'tool_result', tool_use_id: block.id, content: 'ok' }));
    await messagesTurn(variant, [question, { role: 'assistant', content: uses }, { role: 'user', content: results }]);
    expectSignatureBack(variant);
  });

  it('Messages, Claude Code-style: the content blocks sent back verbatim', async () => {
    const question = { role: 'user', content: 'Go.' };
    const content = await messagesTurn(variant, [question]);
    const results = content.filter((block) => block.type === 'tool_use').map((block) => ({ type: 'tool_result', tool_use_id: block.id, content: 'ok' }));
    await messagesTurn(variant, [question, { role: 'assistant', content }, { role: 'user', content: results }]);
    expectSignatureBack(variant);
  });
});
