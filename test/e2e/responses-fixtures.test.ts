/**
 * Recorded answers of the real services, end to end with the official clients:
 * - Responses clients through an `openai-responses` channel (pass-through):
 *   hosted web and file search items, reasoning with encrypted content,
 *   in-stream failures, error statuses, with the gateway's ids mapped in;
 * - Messages and content-generation clients through the same channel type
 *   (translation);
 * - Responses clients through a `gemini` channel (translation).
 * The model name picks the recorded file.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStreamDiscipline, streamEvents } from '../families/responses/support.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureChunks, fixtureText, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const DIALECT = 'openai-responses';
let responsesUpstream: FakeUpstream;
let geminiUpstream: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

/** `replay/<file>[#<turn>|#cut]`: a JSON file, a stream, one turn of the four-turn reasoning stream, or a stream cut short. */
function responsesReplay(request: RecordedRequest): FakeReply {
  const model = request.json<{ model: string }>().model.replace(/^replay\//, '');
  const [file, turn] = model.split('#');
  if (file.startsWith('status-429/')) return { status: 429, headers: { 'content-type': 'application/json' }, body: fixtureText(DIALECT, file.slice(11)) };
  if (!file.endsWith('.chunks.txt')) return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText(DIALECT, file) };
  if (turn === 'cut') return sseReply(DIALECT, file, { cutAfterChunks: 5 });
  if (turn === undefined) return sseReply(DIALECT, file, { pieceBytes: 89 });
  const lines = fixtureChunks(DIALECT, file);
  const starts = lines.flatMap((line, i) => (JSON.parse(line).type === 'response.created' ? [i] : []));
  const slice = lines.slice(starts[Number(turn)], starts[Number(turn) + 1]);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: slice.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`) };
}

function geminiReplay(request: RecordedRequest): FakeReply {
  const [, name, method] = /\/models\/([^:]+):(\w+)/.exec(request.url)!;
  if (method === 'streamGenerateContent') return sseReply('gemini', `${decodeURIComponent(name)}.chunks.txt`);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('gemini', `${decodeURIComponent(name)}.json`) };
}

beforeAll(async () => {
  responsesUpstream = await startFakeUpstream(responsesReplay);
  geminiUpstream = await startFakeUpstream(geminiReplay);
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'responses',
          type: 'openai-responses',
          baseUrl: `${responsesUpstream.origin}/v1`,
          apiKey: 'sk-upstream-openai',
          models: ['replay/*'],
          // Content-generation model names cannot hold a slash.
          modelMapping: { 'gen-text': 'replay/openai-pdf-input-file.1.json', 'gen-search': 'replay/openai-file-search-tool.1.chunks.txt' },
        },
        { name: 'gemini', type: 'gemini', baseUrl: geminiUpstream.origin, apiKey: 'AIza-upstream', models: ['google-*'] },
      ],
      keys: [{ name: 'client', key: 'sk-client-fixtures' }],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-fixtures', maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await responsesUpstream?.close();
  await geminiUpstream?.close();
});

describe('Responses clients through an openai-responses upstream (pass-through)', () => {
  it('returns hosted web search items with the gateway id, and stores them', async () => {
    const response = await client.responses.create({ model: 'replay/openai-web-search-tool.1.json', input: 'news?', tools: [{ type: 'web_search_preview' }] });
    expect(response.id).not.toBe('resp_0953eda47ee17412006933306199c88195b44f9cf2986e1d5b');
    expect(response.output.filter((item) => item.type === 'web_search_call')).toHaveLength(3);
    const message = response.output.at(-1)!;
    expect(message.type === 'message' && message.content[0].type === 'output_text' && message.content[0].annotations).toHaveLength(10);
    const stored = await client.responses.retrieve(response.id);
    expect(stored.output).toEqual(response.output);
  });

  it('streams hosted file search with annotations through stream().finalResponse()', async () => {
    const final = await client.responses
      .stream({ model: 'replay/openai-file-search-tool.1.chunks.txt', input: 'what is an embedding?', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] })
      .finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'file_search_call', 'reasoning', 'message']);
    expect(final.output_text).toMatch(/^According to the document/);
    expect(final.usage!.input_tokens_details.cached_tokens).toBe(2304);
  });

  it('streams reasoning with encrypted content and a function call, turn by turn', async () => {
    const events = await streamEvents(gw.url, 'sk-client-fixtures', { model: 'replay/openai-reasoning-encrypted-content.1.chunks.txt#0', input: 'calc' });
    checkStreamDiscipline(events);
    const final = events.at(-1)!.data.response;
    expect(final.output.map((item: { type: string }) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(final.output[0].encrypted_content).toMatch(/^gAAAAA/);
    expect(final.id).toMatch(/^resp_/);
    expect(JSON.stringify(events)).not.toContain('resp_01830d662ab3856501693c321345c88190b0de00f3b9975691');
  });

  it('passes an in-stream failure on as error then response.failed, under the gateway id', async () => {
    const events = await streamEvents(gw.url, 'sk-client-fixtures', { model: 'replay/openai-error.1.chunks.txt', input: 'x' });
    expect(events.map((event) => event.data.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(events[3].data.response.id).toBe(events[0].data.response.id);
    const failure = await client.responses
      .stream({ model: 'replay/openai-error.1.chunks.txt', input: 'x' })
      .finalResponse()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('exceeded your current quota');
  });

  it('ends a stream the upstream cut with error then response.failed, numbered after what went through', async () => {
    const events = await streamEvents(gw.url, 'sk-client-fixtures', { model: 'replay/openai-pdf-input-file.1.chunks.txt#cut', input: 'x' });
    expect(events.slice(-2).map((event) => event.data.type)).toEqual(['error', 'response.failed']);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)!.data.response.id).toBe(events[0].data.response.id);
    expect(events.filter((event) => event.data.type === 'response.created')).toHaveLength(1);
  });

  it('turns an upstream 429 into a rate-limit error in the OpenAI shape', async () => {
    const failure = await client.responses.create({ model: 'replay/status-429/openai-error.1.json', input: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect((failure as Error).message).toContain('exceeded your current quota');
  });
});

describe('Messages and content-generation clients through an openai-responses upstream (translation)', () => {
  it('answers the Messages client, plain and streamed, with tool calls', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-fixtures', maxRetries: 0 });
    const ask = (model: string) => ({ model, max_tokens: 500, messages: [{ role: 'user' as const, content: 'Hello' }] });
    const plain = await anthropic.messages.create(ask('replay/openai-pdf-input-file.1.json'));
    expect(plain.content).toEqual([{ type: 'text', text: 'Dummy PDF file' }]);
    expect(plain.usage).toMatchObject({ input_tokens: 44, output_tokens: 4 });
    const sent = responsesUpstream.requests.at(-1)!.json<Record<string, unknown>>();
    expect(sent).toMatchObject({ model: 'replay/openai-pdf-input-file.1.json', store: false, max_output_tokens: 500 });
    const tool = await anthropic.messages.stream(ask('replay/openai-client-tool-search.2.chunks.txt')).finalMessage();
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'get_weather' });
    const reasoning = await anthropic.messages.stream(ask('replay/openai-reasoning-encrypted-content.1.chunks.txt#0')).finalMessage();
    expect(reasoning.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
  });

  it('answers the content-generation client', async () => {
    const genai = new GoogleGenAI({ apiKey: 'sk-client-fixtures', httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const response = await genai.models.generateContent({ model: 'gen-text', contents: 'Hello' });
    expect(response.text).toBe('Dummy PDF file');
    const chunks: string[] = [];
    for await (const chunk of await genai.models.generateContentStream({ model: 'gen-search', contents: 'Hello' })) {
      if (chunk.text) chunks.push(chunk.text);
    }
    expect(chunks.join('')).toMatch(/^According to the document/);
  });
});

describe('Responses clients through a gemini upstream (translation)', () => {
  it('answers plain, streamed and with a function call', async () => {
    const plain = await client.responses.create({ model: 'google-text', input: 'Hello' });
    expect(plain.status).toBe('completed');
    expect(plain.output_text.length).toBeGreaterThan(0);
    const streamed = await client.responses.stream({ model: 'google-text', input: 'Hello' }).finalResponse();
    expect(streamed.status).toBe('completed');
    const events = await streamEvents(gw.url, 'sk-client-fixtures', { model: 'google-tool-call', input: 'weather?' });
    checkStreamDiscipline(events);
    expect(events.at(-1)!.data.response.output.some((item: { type: string }) => item.type === 'function_call')).toBe(true);
  });
});
