/**
 * Reasoning continuity across dialects: a client of one dialect runs a tool
 * loop with reasoning on an upstream of another, replays its history, and the
 * upstream gets its own state back (the loopback fakes record what arrives).
 * The state travels sealed in the client dialect's opaque slot; state of one
 * upstream type replayed to another is dropped cleanly; another instance with
 * another secret key ignores it and still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import {
  ANTHROPIC_SIGNATURE,
  ANTHROPIC_THOUGHT,
  GEMINI_SIGNATURE,
  GEMINI_THOUGHT_SIGNATURE,
  OPENAI_REASONING,
  startReasoningFakes,
  type ReasoningFakes,
} from '../upstreams/support/reasoning-fakes.js';

const KEY = 'sk-client-reasoning';
const SKIP = 'skip_thought_signature_validator';
let fakes: ReasoningFakes;
let gw: TestGateway;
let otherInstance: TestGateway;

beforeAll(async () => {
  fakes = await startReasoningFakes();
  const config = { channels: fakes.channels, keys: [{ name: 'client', key: KEY }] };
  gw = await startGateway({ config });
  // Its own data directory: its own secret key.
  otherInstance = await startGateway({ config });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await otherInstance?.close();
  await fakes?.close();
});

async function post(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return path.includes('stream') || text.startsWith('event:') || text.startsWith('data:') ? text : JSON.parse(text);
}

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

// Messages client
const MESSAGES_HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const messagesTools = [{ name: 'get_weather', description: 'weather', input_schema: weatherSchema }];
const messages = (body: Record<string, unknown>, base = gw.url) =>
  post(base, '/v1/messages', { max_tokens: 2000, tools: messagesTools, thinking: { type: 'enabled', budget_tokens: 1024 }, ...body }, MESSAGES_HEADERS);
async function messagesLoop(model: string, replayModel = model, base = gw.url) {
  const question = { role: 'user', content: 'Weather in Paris?' };
  const first = await messages({ model, messages: [question] });
  const call = first.content.find((block: { type: string }) => block.type === 'tool_use');
  const history = [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] }];
  const second = await messages({ model: replayModel, messages: history }, base);
  return { first, second };
}

// Responses client
const responsesTools = [{ type: 'function', name: 'get_weather', description: 'weather', parameters: weatherSchema }];
const responses = (body: Record<string, unknown>) => post(gw.url, '/v1/responses', { tools: responsesTools, reasoning: { effort: 'low' }, ...body }, { authorization: `Bearer ${KEY}` });
const callOutput = (first: any) => {
  const call = first.output.find((item: { type: string }) => item.type === 'function_call');
  return { type: 'function_call_output', call_id: call.call_id, output: 'sunny' };
};

// Content-generation client
const generate = (model: string, body: Record<string, unknown>) =>
  post(
    gw.url,
    `/v1beta/models/${model}:generateContent`,
    {
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'weather', parametersJsonSchema: weatherSchema }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 1024 } },
      ...body,
    },
    { 'x-goog-api-key': KEY },
  );
async function generateLoop(model: string, replayModel = model) {
  const question = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
  const first = await generate(model, { contents: [question] });
  const modelTurn = first.candidates[0].content;
  const call = modelTurn.parts.find((part: { functionCall?: unknown }) => part.functionCall);
  const reply = { role: 'user', parts: [{ functionResponse: { id: call.functionCall.id, name: 'get_weather', response: { output: 'sunny' } } }] };
  const second = await generate(replayModel, { contents: [question, modelTurn, reply] });
  return { first, call, second };
}

const geminiModelTurn = () =>
  fakes.gemini.requests
    .at(-1)!
    .json<{ contents: Array<{ role: string; parts: any[] }> }>()
    .contents.find((c) => c.role === 'model')!;
const geminiCall = () => geminiModelTurn().parts.find((part) => part.functionCall);
const anthropicAssistant = () =>
  fakes.anthropic.requests
    .at(-1)!
    .json<{ messages: Array<{ role: string; content: any[] }> }>()
    .messages.find((m) => m.role === 'assistant')!;
const openaiInput = () => fakes.openai.requests.at(-1)!.json<{ input: Array<Record<string, unknown>> }>().input;

describe('Messages client', () => {
  it('× gemini: the Gemini 3 signature of a function call survives the round trip, sealed on the way', async () => {
    const { first, second } = await messagesLoop('gemini-3-pro-preview');
    const signatures = first.content.filter((block: { type: string }) => block.type === 'thinking').map((block: { signature: string }) => block.signature);
    expect(signatures.length).toBeGreaterThan(0);
    for (const signature of signatures) expect(signature).toMatch(/^swy1/);
    expect(JSON.stringify(first)).not.toContain(GEMINI_SIGNATURE);
    expect(geminiCall()).toEqual({ functionCall: expect.objectContaining({ name: 'get_weather' }), thoughtSignature: GEMINI_SIGNATURE });
    expect(second.content[0].text).toContain('sunny');
  });

  it('× gemini, streamed: the signature is sealed whole and still comes back', async () => {
    const stream: string = await post(
      gw.url,
      '/v1/messages',
      { model: 'gemini-3-pro-preview', max_tokens: 500, stream: true, tools: messagesTools, messages: [{ role: 'user', content: 'Weather?' }] },
      MESSAGES_HEADERS,
    );
    const signatures = [...stream.matchAll(/"signature":"([^"]*)"/g)].map((match) => match[1]).filter(Boolean);
    expect(signatures.length).toBeGreaterThan(0);
    for (const signature of signatures) expect(signature).toMatch(/^swy1/);
    expect(stream).not.toContain(GEMINI_SIGNATURE);
  });

  it('× openai-responses: the encrypted reasoning item goes back as it came', async () => {
    await messagesLoop('gpt-x');
    expect(openaiInput()).toContainEqual({ type: 'reasoning', id: OPENAI_REASONING.id, encrypted_content: OPENAI_REASONING.encrypted, summary: [] });
  });

  it('switching upstreams: Gemini state replayed to anthropic is dropped', async () => {
    await messagesLoop('gemini-3-pro-preview', 'claude-x');
    expect(anthropicAssistant().content.map((block: { type: string }) => block.type)).toEqual(['tool_use']);
  });

  it('another instance with another secret key ignores the state and still answers', async () => {
    const { second } = await messagesLoop('gemini-3-pro-preview', 'gemini-3-pro-preview', otherInstance.url);
    expect(second.content[0].text).toContain('sunny');
    expect(geminiCall().thoughtSignature).toBe(SKIP);
  });
});

describe('Responses client', () => {
  it('× gemini, store off: the reasoning item carries the signature back', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    const first = await responses({ model: 'gemini-3-pro-preview', input: [question], store: false, include: ['reasoning.encrypted_content'] });
    const reasoning = first.output.filter((item: { type: string }) => item.type === 'reasoning');
    expect(reasoning.length).toBeGreaterThan(0);
    for (const item of reasoning) expect(item.encrypted_content).toMatch(/^swy1/);
    await responses({ model: 'gemini-3-pro-preview', input: [question, ...first.output, callOutput(first)], store: false });
    expect(geminiCall().thoughtSignature).toBe(GEMINI_SIGNATURE);
  });

  it('× gemini, stored: previous_response_id and item references keep the sealed state', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    const first = await responses({ model: 'gemini-3-pro-preview', input: [question] });
    expect(first.output.find((item: { type: string }) => item.type === 'reasoning').encrypted_content).toBeUndefined();
    await responses({ model: 'gemini-3-pro-preview', previous_response_id: first.id, input: [callOutput(first)] });
    expect(geminiCall().thoughtSignature).toBe(GEMINI_SIGNATURE);

    const references = first.output.map((item: { id: string }) => ({ type: 'item_reference', id: item.id }));
    await responses({ model: 'gemini-3-pro-preview', input: [question, ...references, callOutput(first)] });
    expect(geminiCall().thoughtSignature).toBe(GEMINI_SIGNATURE);
  });

  it('× anthropic: the thinking signature and its thought come back, with or without summaries', async () => {
    for (const reasoning of [{ effort: 'low' }, { effort: 'low', summary: 'auto' }]) {
      const question = { role: 'user', content: 'Weather in Paris?' };
      const first = await responses({ model: 'claude-x', input: [question], reasoning, store: false, include: ['reasoning.encrypted_content'] });
      await responses({ model: 'claude-x', input: [question, ...first.output, callOutput(first)], reasoning, store: false });
      expect(anthropicAssistant().content[0]).toEqual({ type: 'thinking', thinking: ANTHROPIC_THOUGHT, signature: ANTHROPIC_SIGNATURE });
    }
  });

  it('switching upstreams: Anthropic state replayed to openai-responses sends no reasoning item', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    const first = await responses({ model: 'claude-x', input: [question], store: false, include: ['reasoning.encrypted_content'] });
    await responses({ model: 'gpt-x', input: [question, ...first.output, callOutput(first)], store: false });
    expect(openaiInput().filter((item) => item.type === 'reasoning')).toEqual([]);
  });
});

// Chat Completions client (opencode-style: the assistant message goes back with its reasoning_details)
const chatTools = [{ type: 'function', function: { name: 'get_weather', description: 'weather', parameters: weatherSchema } }];
const chat = (body: Record<string, unknown>) => post(gw.url, '/v1/chat/completions', { tools: chatTools, reasoning_effort: 'low', ...body }, { authorization: `Bearer ${KEY}` });
async function chatLoop(model: string, replayModel = model) {
  const question = { role: 'user', content: 'Weather in Paris?' };
  const first = await chat({ model, messages: [question] });
  const assistant = first.choices[0].message;
  const results = assistant.tool_calls.map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'sunny' }));
  const second = await chat({ model: replayModel, messages: [question, assistant, ...results] });
  return { assistant, second };
}

describe('Chat Completions client', () => {
  it('× anthropic: the signed thinking block comes back whole through reasoning_details', async () => {
    const { assistant, second } = await chatLoop('claude-x');
    expect(assistant.reasoning_content).toBe(ANTHROPIC_THOUGHT);
    expect(assistant.reasoning_details).toEqual([{ type: 'reasoning.text', text: ANTHROPIC_THOUGHT, signature: expect.stringMatching(/^swy1/), format: 'unknown', index: 0 }]);
    expect(JSON.stringify(assistant)).not.toContain(ANTHROPIC_SIGNATURE);
    expect(anthropicAssistant().content[0]).toEqual({ type: 'thinking', thinking: ANTHROPIC_THOUGHT, signature: ANTHROPIC_SIGNATURE });
    expect(second.choices[0].message.content).toContain('sunny');
  });

  it('× anthropic, streamed: reasoning_details deltas, the signature last, and the signed block comes back', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    const stream: string = await chat({ model: 'claude-x', stream: true, messages: [question] });
    const deltas = [...stream.matchAll(/^data: (\{.*\})$/gm)].map((match) => JSON.parse(match[1]).choices?.[0]?.delta ?? {});
    const details = deltas.flatMap((delta) => delta.reasoning_details ?? []);
    expect(details).toEqual([
      { type: 'reasoning.text', text: ANTHROPIC_THOUGHT, format: 'unknown', index: 0 },
      { type: 'reasoning.text', text: '', signature: expect.stringMatching(/^swy1/), format: 'unknown', index: 0 },
    ]);
    expect(stream).not.toContain(ANTHROPIC_SIGNATURE);
    const toolCall = deltas.find((delta) => delta.tool_calls)!.tool_calls[0];
    const assistant = {
      role: 'assistant',
      content: null,
      reasoning_details: details,
      tool_calls: [{ id: toolCall.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    };
    await chat({ model: 'claude-x', messages: [question, assistant, { role: 'tool', tool_call_id: toolCall.id, content: 'sunny' }] });
    expect(anthropicAssistant().content[0]).toEqual({ type: 'thinking', thinking: ANTHROPIC_THOUGHT, signature: ANTHROPIC_SIGNATURE });
  });

  it('× gemini: the thought and the call signature come back on their parts', async () => {
    const { assistant } = await chatLoop('gemini-3-pro-preview');
    const call = assistant.tool_calls[0];
    expect(assistant.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Looking up the weather.', signature: expect.stringMatching(/^swy1/), format: 'unknown', index: 0 },
      { type: 'reasoning.encrypted', data: expect.stringMatching(/^swy1/), id: call.id, format: 'unknown', index: 1 },
    ]);
    expect(geminiModelTurn().parts).toEqual([
      { text: 'Looking up the weather.', thought: true, thoughtSignature: GEMINI_THOUGHT_SIGNATURE },
      { functionCall: expect.objectContaining({ name: 'get_weather' }), thoughtSignature: GEMINI_SIGNATURE },
    ]);
  });

  it('× openai-responses: the encrypted reasoning item goes back as it came', async () => {
    const { assistant } = await chatLoop('gpt-x');
    expect(assistant.reasoning_details).toEqual([{ type: 'reasoning.encrypted', data: expect.stringMatching(/^swy1/), id: assistant.tool_calls[0].id, format: 'unknown', index: 0 }]);
    expect(openaiInput()).toContainEqual({ type: 'reasoning', id: OPENAI_REASONING.id, encrypted_content: OPENAI_REASONING.encrypted, summary: [] });
  });

  it('a client that keeps only reasoning_content: Anthropic gets no thought, Gemini 3 its call signature remembered by call id', async () => {
    const question = { role: 'user', content: 'Weather in Paris?' };
    for (const model of ['claude-x', 'gemini-3-pro-preview']) {
      const first = await chat({ model, messages: [question] });
      const { reasoning_details: _dropped, ...assistant } = first.choices[0].message;
      await chat({ model, messages: [question, assistant, { role: 'tool', tool_call_id: assistant.tool_calls[0].id, content: 'sunny' }] });
    }
    expect(anthropicAssistant().content.map((block: { type: string }) => block.type)).toEqual(['tool_use']);
    expect(geminiCall().thoughtSignature).toBe(GEMINI_SIGNATURE);
  });

  it('switching upstreams: Gemini state replayed to anthropic is dropped', async () => {
    await chatLoop('gemini-3-pro-preview', 'claude-x');
    expect(anthropicAssistant().content.map((block: { type: string }) => block.type)).toEqual(['tool_use']);
  });
});

describe('content-generation client', () => {
  it('× openai-responses: encrypted reasoning returns as a thoughtSignature the gateway accepts and restores', async () => {
    const { call } = await generateLoop('gpt-x');
    expect(call.thoughtSignature).toMatch(/^swy1[A-Za-z0-9+/]+=*$/);
    expect(openaiInput()).toContainEqual({ type: 'reasoning', id: OPENAI_REASONING.id, encrypted_content: OPENAI_REASONING.encrypted, summary: [] });
  });

  it('× anthropic: the hidden thought and its signature come back whole', async () => {
    const { first } = await generateLoop('claude-x');
    expect(JSON.stringify(first)).not.toContain(ANTHROPIC_THOUGHT);
    expect(anthropicAssistant().content[0]).toEqual({ type: 'thinking', thinking: ANTHROPIC_THOUGHT, signature: ANTHROPIC_SIGNATURE });
  });

  it('switching upstreams: OpenAI or Anthropic state replayed to Gemini 3 gives way to the sentinel', async () => {
    for (const origin of ['gpt-x', 'claude-x']) {
      await generateLoop(origin, 'gemini-3-pro-preview');
      expect(geminiModelTurn().parts).toEqual([{ functionCall: expect.objectContaining({ name: 'get_weather' }), thoughtSignature: SKIP }]);
    }
  });
});
