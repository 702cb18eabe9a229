/**
 * Every client family through a `bedrock` channel to models Bedrock serves
 * by its Converse API, with the official SDKs, against a loopback Bedrock
 * (this file's server, answering by test/support/fake-bedrock-converse.ts):
 * Amazon Nova, and a Claude model on a channel with `anthropicApi:
 * converse`. Every family is translated: plain, streamed, a tool loop, an
 * image in, reasoning (Claude's signed thought back on the next turn), cache
 * usage reported; a Bedrock refusal and a stream exception.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { encodeEventStream, handleConverse, type ConverseReply } from '../support/fake-bedrock-converse.js';
import { sdkClients } from '../support/sdk-clients.js';

const CLIENT_KEY = 'sk-client-bedrock';
const BEDROCK_KEY = 'bedrock-api-key-0123456789';
const NOVA = 'us.amazon.nova-pro-v1:0';
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface Seen {
  model: string;
  operation: string;
  headers: IncomingHttpHeaders;
  body: Record<string, any>;
}

let server: Server;
let gw: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;
let genai: GoogleGenAI;
const requests: Seen[] = [];
const scripted: ConverseReply[] = [];
const last = () => requests.at(-1)!;

function reply(res: import('node:http').ServerResponse, answer: ConverseReply): void {
  if ('events' in answer) {
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    res.end(encodeEventStream(answer.events));
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.errorType) headers['x-amzn-errortype'] = `${answer.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
  res.writeHead(answer.status, headers);
  res.end(JSON.stringify(answer.json));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return reply(res, { status: 404, json: { message: 'Not Found' }, errorType: 'UnknownOperationException' });
      if (req.headers.authorization !== `Bearer ${BEDROCK_KEY}`) return reply(res, { status: 403, json: { message: 'Authentication failed' }, errorType: 'AccessDeniedException' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const model = decodeURIComponent(match[1]);
      requests.push({ model, operation: match[2], headers: req.headers, body });
      const stream = match[2] === 'converse-stream';
      const wanted = stream ? 'application/vnd.amazon.eventstream' : 'application/json';
      if (req.headers.accept !== wanted) return reply(res, { status: 400, json: { message: `accept must be ${wanted}` }, errorType: 'ValidationException' });
      reply(res, scripted.shift() ?? handleConverse(body, stream, model));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = { auth: 'api-key', endpoint: origin, region: 'us-west-2' };
  gw = await startGateway({
    config: {
      channels: [
        { name: 'bedrock', type: 'bedrock', apiKey: BEDROCK_KEY, models: ['nova'], modelMapping: { nova: NOVA }, settings },
        { name: 'bedrock-claude', type: 'bedrock', apiKey: BEDROCK_KEY, models: ['claude'], modelMapping: { claude: CLAUDE }, settings: { ...settings, anthropicApi: 'converse' } },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
  ({ anthropic, openai, genai } = sdkClients(gw.url, CLIENT_KEY));
});
afterAll(async () => {
  await gw?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const weather = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

describe('Chat Completions clients', () => {
  it('plain and streamed, with cache usage from the gateway’s cache points', async () => {
    const completion = await openai.chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]!.message.content).toBe('Hello from Bedrock.');
    expect(completion.usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 6, prompt_tokens_details: { cached_tokens: 8 } });
    expect(last()).toMatchObject({ model: NOVA, operation: 'converse' });
    expect(last().body.messages).toEqual([{ role: 'user', content: [{ text: 'Hello' }, { cachePoint: { type: 'default' } }] }]);
    expect(last().headers['content-type']).toBe('application/json');
    let streamed = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of await openai.chat.completions.create({ model: 'nova', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hello' }] })) {
      streamed += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(streamed).toBe('Hello from Bedrock.');
    expect(usage).toMatchObject({ completion_tokens: 6, prompt_tokens_details: { cached_tokens: 8 } });
    expect(last().operation).toBe('converse-stream');
    const logs = await gw.admin('GET', '/logs?model=nova');
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 12, outputTokens: 6, cacheReadTokens: 8, cacheWriteTokens: 2, triedChannels: ['bedrock'] });
  });

  it('a refusal Bedrock gives is the client’s bad request', async () => {
    scripted.push({ status: 400, json: { message: 'The model returned the following errors: Malformed input request' }, errorType: 'ValidationException' });
    const refused = await openai.chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hello' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('Messages clients (translated)', () => {
  it('a streamed tool loop with Nova', async () => {
    const tools = [{ name: 'get_weather', description: 'Current weather', input_schema: weather }];
    const first = await anthropic.messages.stream({ model: 'nova', max_tokens: 200, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage();
    expect(last().operation).toBe('converse-stream');
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const second = await anthropic.messages.create({
      model: 'nova',
      max_tokens: 200,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21°C' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Hello from Bedrock.' }]);
    // The gateway's own cache points end the last two turns.
    expect(last().body.messages[1].content).toEqual([{ toolUse: { toolUseId: 'tooluse_bdrk_01', name: 'get_weather', input: { city: 'Paris' } } }, { cachePoint: { type: 'default' } }]);
    expect(last().body.messages[2].content[0]).toEqual({ toolResult: { toolUseId: 'tooluse_bdrk_01', content: [{ text: '21°C' }], status: 'success' } });
    expect(last().body.inferenceConfig).toEqual({ maxTokens: 200 });
  });

  it('Claude by Converse: its signed thought comes back and goes back on the next turn', async () => {
    const tools = [{ name: 'get_weather', input_schema: weather }];
    const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
    const first = await anthropic.messages.create({ model: 'claude', max_tokens: 2000, thinking, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(last()).toMatchObject({ model: CLAUDE, operation: 'converse' });
    expect(last().body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const call = first.content[1] as Anthropic.ToolUseBlock;
    await anthropic.messages.create({
      model: 'claude',
      max_tokens: 2000,
      thinking,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21°C' }] },
      ],
    });
    expect(last().body.messages[1].content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'Thinking it over.', signature: 'EqQBCkYIBRgCKkDbdrk' } } });
    expect(last().body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('a stream exception mid-answer ends the stream with the family’s error', async () => {
    scripted.push({
      status: 200,
      events: [
        { type: 'messageStart', payload: { role: 'assistant' } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hel' } } },
        { type: 'throttlingException', payload: { message: 'Too many tokens' }, messageType: 'exception' },
      ],
    });
    const failed = await anthropic.messages
      .stream({ model: 'nova', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] })
      .finalMessage()
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
  });
});

describe('content-generation and Responses clients (translated)', () => {
  it('an image in, by its bytes', async () => {
    const answer = await genai.models.generateContent({
      model: 'nova',
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }, { text: 'What is this?' }] }],
    });
    expect(answer.text).toBe('I see an image.');
    expect(last().body.messages[0].content[0]).toEqual({ image: { format: 'png', source: { bytes: PNG } } });
  });

  it('Responses: plain with cached tokens, streamed, and reasoning on Claude', async () => {
    const plain = await openai.responses.create({ model: 'nova', input: 'Hello' });
    expect(plain.output_text).toBe('Hello from Bedrock.');
    expect(plain.usage).toMatchObject({ input_tokens: 22, output_tokens: 6, input_tokens_details: { cached_tokens: 8 } });
    let text = '';
    for await (const event of await openai.responses.create({ model: 'nova', input: 'Hello', stream: true })) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Hello from Bedrock.');
    const reasoned = await openai.responses.create({ model: 'claude', input: 'Hello', reasoning: { effort: 'low' } });
    expect(last().body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(reasoned.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(reasoned.output_text).toBe('Hello from Bedrock.');
  });
});
