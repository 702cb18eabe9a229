/**
 * Family F with the official `openai` client through the built-in simulator:
 * plain and streamed completions, a tool round trip, structured output with
 * `chat.completions.parse`, usage, errors in the OpenAI shape.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gw = await startGateway();
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.clientKey, maxRetries: 0 });
});
afterAll(async () => gw?.close());

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('chat.completions.create', () => {
  it('answers a plain request with a chat.completion object', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices[0].message.role).toBe('assistant');
    expect(typeof completion.choices[0].message.content).toBe('string');
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
  });

  it('streams chunks with one id, the role first, finish_reason last and [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me a story' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const withChoices = chunks.filter((c) => c.choices.length > 0);
    expect(withChoices.at(-1)!.choices[0].finish_reason).toBe('stop');
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage!.completion_tokens).toBeGreaterThan(0);
    const text = withChoices.map((c) => c.choices[0].delta.content ?? '').join('');
    expect(text.length).toBeGreaterThan(0);
  });

  it('sends no usage chunk to a client that did not ask', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('runs a tool round trip, plain and streamed', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [weatherTool], tool_choice: 'required' });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('get_weather');
    expect(() => JSON.parse(call.function.arguments)).not.toThrow();
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '18°C and sunny' });
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [weatherTool] });
    expect(second.choices[0].message.content).toBeTruthy();

    const runner = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: messages.slice(0, 1), tools: [weatherTool], tool_choice: 'required' });
    const streamed = await runner.finalChatCompletion();
    expect(streamed.choices[0].finish_reason).toBe('tool_calls');
    const streamedCall = streamed.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(streamedCall.function.name).toBe('get_weather');
    expect(JSON.parse(streamedCall.function.arguments)).toBeTypeOf('object');
  });

  it('parses structured output with a zod schema', async () => {
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const completion = await client.chat.completions.parse({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather in Paris as JSON' }],
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const parsed = completion.choices[0].message.parsed!;
    expect(Weather.safeParse(parsed).success).toBe(true);
  });
});

describe('errors in the OpenAI shape', () => {
  it('names the invalid field in param', async () => {
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], temperature: 7 }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', param: 'temperature' });
  });

  it('refuses a tool message that answers no call', async () => {
    const error = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_1', content: 'r' },
        ],
      })
      .catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error.param).toBe('messages[1].tool_call_id');
  });

  it('refuses an answer-changing field no upstream can honour, by name', async () => {
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], n: 3 }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toContain('n');
  });

  it('rejects a wrong key with 401', async () => {
    const bad = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    const error = await bad.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('records', () => {
  it('logs the request under the chat-completions family with its usage', async () => {
    await client.chat.completions.create({ model: 'log-probe-model', messages: [{ role: 'user', content: 'count me' }] });
    const logs = await gw.admin('GET', '/logs?model=log-probe-model');
    expect(logs.body.data[0]).toMatchObject({ family: 'chat-completions', httpStatus: 200 });
    expect(logs.body.data[0].outputTokens).toBeGreaterThan(0);
  });
});

describe('the ai SDK with @ai-sdk/openai-compatible', () => {
  const provider = () => createOpenAICompatible({ name: 'switchyard', baseURL: `${gw.url}/v1`, apiKey: gw.clientKey, includeUsage: true });

  it('generates and streams text with usage', async () => {
    const plain = await generateText({ model: provider()('gpt-4o-mini'), prompt: 'Say hello' });
    expect(plain.text.length).toBeGreaterThan(0);
    expect(plain.usage.outputTokens).toBeGreaterThan(0);
    const streamed = streamText({ model: provider()('gpt-4o-mini'), prompt: 'Tell me a story' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text.length).toBeGreaterThan(0);
    expect((await streamed.usage).outputTokens).toBeGreaterThan(0);
  });

  it('runs a tool loop to a final answer', async () => {
    const result = await generateText({
      model: provider()('gpt-4o-mini'),
      prompt: 'What is the weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'Weather for a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
          execute: async ({ city }) => `18°C in ${city}`,
        }),
      },
      toolChoice: 'auto',
      stopWhen: stepCountIs(3),
    });
    expect(result.steps.length).toBeGreaterThanOrEqual(1);
    expect(result.text.length + result.toolCalls.length).toBeGreaterThan(0);
  });
});
