/**
 * Family D through real upstream wire formats, each a loopback server
 * replaying recorded responses of the real services: a gemini channel
 * (pass-through), anthropic and openai-chat channels (translation); and the
 * official Messages client served by a gemini channel (translation). The
 * model name picks the recorded file: `<file>` without its extension, the
 * plain or streamed form chosen by the request.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { GoogleGenAI, type Content } from '@google/genai';
import { generateText, streamText } from 'ai';
import { GoogleGenAI as LegacyGoogleGenAI } from 'google-genai-legacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureChunks, fixtureFiles, fixtureText, sseReply, type FixtureDialect } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const CLIENT_KEY = 'AIza-client-upstreams';
let gemini: FakeUpstream;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
let gw: TestGateway;

/** `<name>.json` for a plain request, `<name>.chunks.txt` for a stream; whichever exists when only one does. */
function replay(dialect: FixtureDialect, name: string, stream: boolean, sse = true): FakeReply {
  const files = fixtureFiles(dialect);
  const plain = files.find((file) => file === `${name}.json`);
  const chunks = files.find((file) => file === `${name}.chunks.txt`);
  if (stream && chunks) {
    if (!sse) return { status: 200, headers: { 'content-type': 'application/json' }, body: `[${fixtureChunks(dialect, chunks).join(',\r\n')}]` };
    return sseReply(dialect, chunks, { pieceBytes: 97 });
  }
  const file = plain ?? chunks;
  if (!file) return { status: 404, body: JSON.stringify({ error: { code: 404, message: `no fixture ${name}`, status: 'NOT_FOUND' } }) };
  if (file === chunks) return sseReply(dialect, file);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText(dialect, file) };
}

const geminiReplay = (request: RecordedRequest): FakeReply => {
  const match = /\/models\/([^:]+):(\w+)/.exec(request.url)!;
  return replay('gemini', decodeURIComponent(match[1]), match[2] === 'streamGenerateContent', request.url.includes('alt=sse'));
};
const byBodyModel =
  (dialect: FixtureDialect) =>
  (request: RecordedRequest): FakeReply => {
    const body = request.json<{ model: string; stream?: boolean }>();
    return replay(dialect, body.model, body.stream === true);
  };

beforeAll(async () => {
  gemini = await startFakeUpstream(geminiReplay);
  anthropic = await startFakeUpstream(byBodyModel('anthropic-messages'));
  openai = await startFakeUpstream(byBodyModel('openai-chat'));
  gw = await startGateway({
    config: {
      channels: [
        { name: 'gemini', type: 'gemini', baseUrl: gemini.origin, apiKey: 'AIza-upstream-gemini', models: ['google-*', 'alias-text'], modelMapping: { 'alias-text': 'google-text' } },
        { name: 'anthropic', type: 'anthropic', baseUrl: anthropic.origin, apiKey: 'sk-upstream-anthropic', models: ['anthropic-*'] },
        { name: 'openai', type: 'openai-chat', baseUrl: `${openai.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['openai-*', 'deepseek-*', 'alibaba-*'] },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await gemini?.close();
  await anthropic?.close();
  await openai?.close();
});

const genai = () => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gw.url } });

async function lastLog(model: string): Promise<any> {
  return (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data[0];
}

describe('through a gemini upstream (pass-through)', () => {
  it('forwards the body untouched, the channel key, and the mapped model in the path', async () => {
    const response = await genai().models.generateContent({ model: 'alias-text', contents: 'How many r?', config: { temperature: 0.4 } });
    expect(response.text).toContain('strawberry');
    expect(response.responseId).toBe('Un6LacrVMcjUxs0PmJfWoQc');
    const seen = gemini.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/google-text:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe('AIza-upstream-gemini');
    expect(seen.json()).toEqual({ contents: [{ parts: [{ text: 'How many r?' }], role: 'user' }], generationConfig: { temperature: 0.4 } });
    expect(await lastLog('alias-text')).toMatchObject({ inputTokens: 9, outputTokens: 272, reasoningTokens: 244, estimated: false, triedChannels: ['gemini'] });
  });

  it('streams recorded chunks to @google/genai 3.x and 2.x, signatures and streamed arguments included', async () => {
    for (const client of [genai(), new LegacyGoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gw.url } })]) {
      const stream = await client.models.generateContentStream({ model: 'google-stream-no-args-tool-call', contents: 'read the screens' });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks).toHaveLength(fixtureChunks('gemini', 'google-stream-no-args-tool-call.chunks.txt').length);
      expect(chunks[1].candidates?.[0].content?.parts?.[0].thoughtSignature).toMatch(/^AY89/);
      expect(chunks.at(-1)!.candidates?.[0].finishReason).toBe('STOP');
    }
    expect(await lastLog('google-stream-no-args-tool-call')).toMatchObject({ inputTokens: 249, outputTokens: 241, estimated: false });
  });

  it('passes the JSON-array stream form through for plain HTTP clients', async () => {
    const res = await fetch(`${gw.url}/v1beta/models/google-text:streamGenerateContent?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'array please' }] }] }),
    });
    const chunks = (await res.json()) as unknown[];
    expect(chunks).toHaveLength(3);
    expect(gemini.requests.at(-1)!.url).toBe('/v1beta/models/google-text:streamGenerateContent');
  });

  it('serves @ai-sdk/google: text, and streamed function-call arguments rebuilt by the client', async () => {
    const google = createGoogleGenerativeAI({ baseURL: `${gw.url}/v1beta`, apiKey: CLIENT_KEY });
    const text = await generateText({ model: google('google-text'), prompt: 'How many r?', maxRetries: 0 });
    expect(text.text).toContain('strawberry');
    expect(text.usage.outputTokenDetails?.reasoningTokens).toBe(244);

    const streamed = streamText({ model: google('google-stream-tool-call-arguments'), prompt: 'weather?', maxRetries: 0 });
    const calls: Array<{ toolName: string; input: unknown }> = [];
    for await (const part of streamed.fullStream) {
      if (part.type === 'error') throw part.error;
      if (part.type === 'tool-call') calls.push({ toolName: part.toolName, input: part.input });
    }
    expect(calls).toEqual([
      { toolName: 'getWeather', input: { location: 'Boston' } },
      { toolName: 'getWeather', input: { location: 'San Francisco' } },
    ]);
  });

  it('passes code execution and grounding tools to the native upstream', async () => {
    await genai().models.generateContent({ model: 'google-text', contents: 'compute', config: { tools: [{ codeExecution: {} }, { googleSearch: {} }] } });
    expect(gemini.requests.at(-1)!.json()).toMatchObject({ tools: [{ codeExecution: {} }, { googleSearch: {} }] });
  });
});

describe('the Messages client through a gemini upstream (translation)', () => {
  const claude = () => new Anthropic({ baseURL: gw.url, apiKey: CLIENT_KEY, maxRetries: 0 });
  const ask = (model: string) => ({ model, max_tokens: 1000, messages: [{ role: 'user' as const, content: 'Hello' }] });

  it('answers plain text as a Messages object', async () => {
    const message = await claude().messages.create(ask('google-text'));
    expect(message.type).toBe('message');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content).toEqual([{ type: 'text', text: expect.stringContaining('strawberry') }]);
    expect(message.usage).toMatchObject({ input_tokens: 9, output_tokens: 272 });
    const seen = gemini.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/google-text:generateContent');
    expect(seen.json()).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { maxOutputTokens: 1000 } });
  });

  it('streams text, and function calls with their signature; the signature goes back on the next turn', async () => {
    const text = await claude().messages.stream(ask('google-text')).finalMessage();
    expect(text.stop_reason).toBe('end_turn');
    expect(text.content.map((block) => block.type)).toEqual(['text']);

    const tools = [{ name: 'weather', input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } } }];
    const call = await claude()
      .messages.stream({ ...ask('google-tool-call'), tools })
      .finalMessage();
    expect(call.stop_reason).toBe('tool_use');
    expect(call.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const toolUse = call.content[1];
    if (toolUse.type !== 'tool_use') throw new Error('expected tool_use');
    expect(toolUse.input).toEqual({ location: 'San Francisco' });

    await claude().messages.create({
      ...ask('google-text'),
      tools,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: call.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'foggy' }] },
      ],
    });
    const sent = gemini.requests.at(-1)!.json<{ contents: Content[] }>();
    // The client held the signature sealed; the upstream gets its own recorded value back.
    expect((call.content[0] as { signature: string }).signature).toMatch(/^swy1/);
    const signature = /"thoughtSignature":\s*"([^"]+)"/.exec(fixtureText('gemini', 'google-tool-call.chunks.txt'))![1];
    expect(sent.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: toolUse.id, name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: signature }],
    });
    expect(sent.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { id: toolUse.id, name: 'weather', response: { output: 'foggy' } } }] });
  });

  it('translates thinking both ways', async () => {
    const message = await claude()
      .messages.stream({ ...ask('google-stream-no-args-tool-call'), max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2048 } })
      .finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'thinking', 'tool_use', 'tool_use', 'tool_use', 'tool_use']);
    expect(message.content[3]).toMatchObject({ name: 'read_screen', input: { id: 'A' } });
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: expect.stringContaining('Processing User Requests') });
    expect(gemini.requests.at(-1)!.json()).toMatchObject({ generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } });
  });
});

describe('through an anthropic upstream (translation)', () => {
  it('answers plain and streamed text', async () => {
    const plain = await genai().models.generateContent({ model: 'anthropic-text', contents: 'Hello', config: { systemInstruction: 'be kind', maxOutputTokens: 300 } });
    expect(plain.text?.length).toBeGreaterThan(0);
    expect(plain.candidates?.[0].finishReason).toBe('STOP');
    expect(plain.modelVersion).toBe('anthropic-text');
    // The gateway's cache breakpoints: the end of the system prompt and of the conversation.
    const ephemeral = { type: 'ephemeral' };
    expect(anthropic.requests.at(-1)!.json()).toMatchObject({
      model: 'anthropic-text',
      system: [{ type: 'text', text: 'be kind', cache_control: ephemeral }],
      max_tokens: 300,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: ephemeral }] }],
    });

    const stream = await genai().models.generateContentStream({ model: 'anthropic-text', contents: 'Hello' });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    // The recorded stream is another call than the recorded plain answer: same greeting, other words.
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toMatch(/^Hello! I'm doing well/);
    expect(chunks.at(-1)!.candidates?.[0].finishReason).toBe('STOP');
    expect(chunks.at(-1)!.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
  });

  it('returns thoughts when asked, and carries hidden ones back inside the signature', async () => {
    const shown = await genai().models.generateContent({
      model: 'anthropic-claude-opus-5-reasoning-high.1',
      contents: 'Solve it',
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
    });
    const parts = shown.candidates![0].content!.parts!;
    expect(parts[0]).toMatchObject({ thought: true, text: expect.stringContaining('Rational Root Theorem') });
    // Anthropic's signature reaches the client sealed (standard base64), and goes back as it was below.
    expect(parts[1].thoughtSignature).toMatch(/^swy1[A-Za-z0-9+/]+=*$/);
    expect(shown.usageMetadata?.thoughtsTokenCount).toBe(139);

    const hidden = await genai().models.generateContent({
      model: 'anthropic-claude-opus-5-reasoning-high.1',
      contents: 'Solve it',
      config: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    const hiddenParts = hidden.candidates![0].content!.parts!;
    expect(hiddenParts.some((part) => part.thought)).toBe(false);
    expect(hiddenParts[0].thoughtSignature).toBeDefined();

    // Sent back, the hidden thought reaches the upstream whole, with its signature.
    await genai().models.generateContent({
      model: 'anthropic-text',
      contents: [{ role: 'user', parts: [{ text: 'Solve it' }] }, hidden.candidates![0].content!, { role: 'user', parts: [{ text: 'thanks' }] }],
      config: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    const assistant = anthropic.requests.at(-1)!.json<{ messages: Array<{ content: Array<Record<string, unknown>> }> }>().messages[1];
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', thinking: expect.stringContaining('Rational Root Theorem'), signature: expect.stringMatching(/^CAIS/) });
  });

  it('streams a function call and runs the round trip with matching ids', async () => {
    const stream = await genai().models.generateContentStream({
      model: 'anthropic-tool-no-args',
      contents: 'update the issues',
      config: { tools: [{ functionDeclarations: [{ name: 'updateIssueList', parametersJsonSchema: { type: 'object' } }] }] },
    });
    const calls = [];
    const history: Content[] = [{ role: 'user', parts: [{ text: 'update the issues' }] }];
    const modelParts = [];
    for await (const chunk of stream) {
      calls.push(...(chunk.functionCalls ?? []));
      modelParts.push(...(chunk.candidates?.[0].content?.parts ?? []));
    }
    expect(calls).toHaveLength(1);
    history.push({ role: 'model', parts: modelParts });
    history.push({ role: 'user', parts: [{ functionResponse: { name: calls[0].name!, response: { output: 'done' } } }] });
    await genai().models.generateContent({ model: 'anthropic-text', contents: history });
    const sent = anthropic.requests.at(-1)!.json<{ messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }>().messages;
    const toolUse = sent[1].content.find((block) => block.type === 'tool_use')!;
    expect(sent[2].content[0]).toEqual({ type: 'tool_result', tool_use_id: toolUse.id, content: [{ type: 'text', text: 'done' }], cache_control: { type: 'ephemeral' } });
  });

  it('ignores what cannot change the answer, and says so in a header', async () => {
    const res = await fetch(`${gw.url}/v1beta/models/anthropic-text:generateContent?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { seed: 3 } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBe('ignored=seed');
    expect(anthropic.requests.at(-1)!.json()).not.toHaveProperty('seed');
  });

  it('refuses what the upstream cannot honour with INVALID_ARGUMENT naming it', async () => {
    const cases: Array<[object, string]> = [[{ responseLogprobs: true }, 'logprobs']];
    for (const [config, name] of cases) {
      const failure = await genai()
        .models.generateContent({ model: 'anthropic-text', contents: 'hi', config })
        .catch((error) => error);
      expect(failure.status).toBe(400);
      const body = JSON.parse(failure.message);
      expect(body.error.status).toBe('INVALID_ARGUMENT');
      expect(body.error.message).toContain(name);
    }
  });
});

describe('through an openai-chat upstream (translation)', () => {
  it('translates text, tool calls and reasoning', async () => {
    const text = await genai().models.generateContent({ model: 'openai-text', contents: 'Hello' });
    expect(text.candidates?.[0].finishReason).toBe('STOP');
    expect(text.text?.length).toBeGreaterThan(0);

    const tool = await genai().models.generateContent({ model: 'deepseek-tool-call', contents: 'weather?' });
    expect(tool.functionCalls?.length).toBe(1);

    const streamed = await genai().models.generateContentStream({ model: 'alibaba-tool-call', contents: 'weather?' });
    const calls = [];
    for await (const chunk of streamed) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toHaveLength(1);
    expect(typeof calls[0].args).toBe('object');

    const reasoning = await genai().models.generateContentStream({
      model: 'deepseek-reasoning',
      contents: 'think',
      config: { thinkingConfig: { includeThoughts: true } },
    });
    let thoughts = 0;
    for await (const chunk of reasoning) thoughts += chunk.candidates?.[0].content?.parts?.filter((part) => part.thought).length ?? 0;
    expect(thoughts).toBeGreaterThan(10);
  });

  it('ignores topK, which chat completions lacks, and names it in the translation header', async () => {
    const res = await fetch(`${gw.url}/v1beta/models/openai-text:generateContent?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { topK: 64 } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-translation')).toBe('ignored=top_k');
    expect(openai.requests.at(-1)!.json()).not.toHaveProperty('top_k');
  });
});
