/**
 * A `vertex` channel's models beyond Gemini and Claude, with the official
 * SDKs, against the loopback Vertex (test/support/fake-vertex.ts): the
 * partner and open models of its OpenAI-compatible endpoint (Chat
 * Completions clients pass through, others translated), and Google's
 * embedding models by `:predict` (OpenAI and content-generation clients).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { OPENAPI_TEXT } from '../support/fake-vertex-openapi.js';
import { sdkClients } from '../support/sdk-clients.js';

const CLIENT_KEY = 'sk-client-vertex-openapi';
const LLAMA = 'meta/llama-4-maverick-17b-128e-instruct-maas';
const EMBEDDING = 'text-embedding-005';

let fake: FakeVertex;
let gw: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  fake = await startFakeVertex();
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'vertex',
          type: 'vertex',
          apiKey: fake.serviceAccountKey(),
          models: ['llama-vertex', EMBEDDING, 'gemini-embedding-001'],
          modelMapping: { 'llama-vertex': LLAMA },
          settings: { project: fake.project, location: fake.location, endpoint: fake.origin },
        },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
  ({ anthropic, openai, genai } = sdkClients(gw.url, CLIENT_KEY));
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
});

const last = () => fake.requests.at(-1)!;
const weather = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

describe('a model of the OpenAI-compatible endpoint', () => {
  it('takes a Chat Completions client as it is: the model named with its publisher in the body, the Bearer token', async () => {
    const completion = await openai.chat.completions.create({ model: 'llama-vertex', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]!.message.content).toBe(OPENAPI_TEXT);
    expect(completion.usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 7 });
    expect(last()).toMatchObject({ publisher: 'openapi', model: LLAMA, verb: 'chat/completions' });
    expect(last().url).toBe(`/v1/projects/${fake.project}/locations/${fake.location}/endpoints/openapi/chat/completions`);
    expect(last().headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    const logs = await gw.admin('GET', '/logs?model=llama-vertex');
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 13, outputTokens: 7, triedChannels: ['vertex'] });
  });

  it('streams to a Chat Completions client, with the usage it asked for', async () => {
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of await openai.chat.completions.create({ model: 'llama-vertex', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hello' }] })) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(OPENAPI_TEXT);
    expect(usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 7 });
    expect(last().body.stream).toBe(true);
  });

  it('calls a tool for a Chat Completions client and takes its result', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weather } }];
    const first = await openai.chat.completions.create({ model: 'llama-vertex', tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    const second = await openai.chat.completions.create({
      model: 'llama-vertex',
      tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '21°C' }],
    });
    expect(second.choices[0]!.message.content).toBe(OPENAPI_TEXT);
  });

  it('is translated for a Messages client: plain, streamed and a tool call', async () => {
    const message = await anthropic.messages.create({ model: 'llama-vertex', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    expect(message.content).toEqual([{ type: 'text', text: OPENAPI_TEXT }]);
    expect(message.usage).toMatchObject({ input_tokens: 13, output_tokens: 7 });
    expect(last()).toMatchObject({ publisher: 'openapi', model: LLAMA });
    expect(last().body.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    const streamed = await anthropic.messages.stream({ model: 'llama-vertex', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: OPENAPI_TEXT }]);
    const tooled = await anthropic.messages.create({
      model: 'llama-vertex',
      max_tokens: 100,
      tools: [{ name: 'get_weather', input_schema: weather }],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(tooled.stop_reason).toBe('tool_use');
    expect(tooled.content).toMatchObject([{ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } }]);
  });

  it('is translated for a content-generation client', async () => {
    const answer = await genai.models.generateContent({ model: 'llama-vertex', contents: 'Hello' });
    expect(answer.text).toBe(OPENAPI_TEXT);
    expect(last()).toMatchObject({ publisher: 'openapi', model: LLAMA });
  });
});

describe('Google’s embedding models by :predict', () => {
  it('embed an OpenAI client’s inputs in one request, the usage from the token counts', async () => {
    const answer = await openai.embeddings.create({ model: EMBEDDING, input: ['first text here', 'second'], dimensions: 3 });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0.5, 0.25, 0.125],
      [1, 0.5, 0.25],
    ]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 4, total_tokens: 4 });
    expect(last()).toMatchObject({ publisher: 'google', model: EMBEDDING, verb: 'predict' });
    expect(last().body).toEqual({ instances: [{ content: 'first text here' }, { content: 'second' }], parameters: { outputDimensionality: 3 } });
    const logs = await gw.admin('GET', `/logs?model=${EMBEDDING}`);
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 4, triedChannels: ['vertex'] });
  });

  it('send gemini-embedding inputs one a request, as Vertex takes them', async () => {
    const before = fake.requests.length;
    const answer = await openai.embeddings.create({ model: 'gemini-embedding-001', input: ['one', 'two words'] });
    expect(answer.data).toHaveLength(2);
    expect(answer.usage.prompt_tokens).toBe(3);
    const sent = fake.requests.slice(before);
    expect(sent.map((request) => request.body.instances)).toEqual(expect.arrayContaining([[{ content: 'one' }], [{ content: 'two words' }]]));
    expect(sent).toHaveLength(2);
  });

  it('embed a content-generation client’s content with its task type and title', async () => {
    const answer = await genai.models.embedContent({
      model: EMBEDDING,
      contents: 'A document about Paris',
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Paris', outputDimensionality: 2 },
    });
    expect(answer.embeddings?.[0]?.values).toEqual([0.5, 0.25]);
    expect(last().body).toEqual({ instances: [{ content: 'A document about Paris', task_type: 'RETRIEVAL_DOCUMENT', title: 'Paris' }], parameters: { outputDimensionality: 2 } });
  });

  it('a chat model computes none: the channel says so', async () => {
    const refused = await openai.embeddings.create({ model: 'llama-vertex', input: 'Hello' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain(`the vertex channel computes no embeddings for ${LLAMA}`);
  });
});
