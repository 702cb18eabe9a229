/**
 * Family C with the official clients, unchanged, against a gateway on the
 * embedded default (SQLite + the built-in simulator).
 */
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
import AnthropicLegacy from 'anthropic-sdk-legacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let client: Anthropic;

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};

beforeAll(async () => {
  gw = await startGateway();
  client = new Anthropic({ baseURL: gw.url, apiKey: gw.clientKey, maxRetries: 0 });
});
afterAll(async () => gw?.close());

describe('@anthropic-ai/sdk 1.x (Bearer credential, new version header)', () => {
  it('creates a message', async () => {
    const message = await client.messages.create({
      model: 'sim-model',
      max_tokens: 300,
      messages: [{ role: 'user', content: 'Hello there, gateway' }],
    });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe('sim-model');
    expect(message.stop_reason).toBe('end_turn');
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toContain('Hello there, gateway');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThanOrEqual(24);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(message._request_id).toMatch(/^req_/);
  });

  it('streams with messages.stream().finalMessage()', async () => {
    const stream = client.messages.stream({
      model: 'sim-model',
      max_tokens: 300,
      messages: [{ role: 'user', content: 'Stream this please' }],
    });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toContain('Stream this please');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('cuts at max_tokens and at a stop sequence', async () => {
    const short = await client.messages.create({
      model: 'sim-model',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Tell me a long story' }],
    });
    expect(short.stop_reason).toBe('max_tokens');
    expect(short.usage.output_tokens).toBeLessThanOrEqual(5);

    const stopped = await client.messages.create({
      model: 'sim-model',
      max_tokens: 300,
      stop_sequences: ['said'],
      messages: [{ role: 'user', content: 'Tell me a long story' }],
    });
    expect(stopped.stop_reason).toBe('stop_sequence');
    expect(stopped.stop_sequence).toBe('said');
  });

  it('runs a tool round trip', async () => {
    const first = await client.messages.create({
      model: 'sim-model',
      max_tokens: 300,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Use get_weather for Paris' }],
    });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(call.name).toBe('get_weather');
    const input = call.input as Record<string, unknown>;
    expect(typeof input.city).toBe('string');
    expect(['celsius', 'fahrenheit']).toContain(input.unit);

    const second = await client.messages.create({
      model: 'sim-model',
      max_tokens: 300,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Use get_weather for Paris' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21 degrees and sunny' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const text = second.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toContain('21 degrees and sunny');
  });

  it('streams a forced tool call whose input rebuilds to valid JSON', async () => {
    const message = await client.messages
      .stream({
        model: 'sim-model',
        max_tokens: 300,
        tools: [weatherTool],
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [{ role: 'user', content: 'What is it like outside?' }],
      })
      .finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const call = message.content.find((block) => block.type === 'tool_use');
    expect(call?.type === 'tool_use' && typeof (call.input as { city?: unknown }).city).toBe('string');
  });

  it('returns thinking blocks with a signature, plain and streamed', async () => {
    const request = {
      model: 'sim-model',
      max_tokens: 4000,
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
      messages: [{ role: 'user' as const, content: 'Think about the sky' }],
    };
    const plain = await client.messages.create(request);
    expect(plain.content[0].type).toBe('thinking');
    if (plain.content[0].type === 'thinking') expect(plain.content[0].signature.length).toBeGreaterThan(0);
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed.content[0].type).toBe('thinking');
    if (streamed.content[0].type === 'thinking') {
      expect(streamed.content[0].thinking.length).toBeGreaterThan(0);
      expect(streamed.content[0].signature.length).toBeGreaterThan(0);
    }
    expect(streamed.content.some((block) => block.type === 'text')).toBe(true);
  });

  it('maps errors to the typed exceptions', async () => {
    const badKey = new Anthropic({ baseURL: gw.url, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(badKey.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);

    const invalid = client.messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] });
    await expect(invalid).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await invalid.catch((error: InstanceType<typeof Anthropic.BadRequestError>) => {
      expect(error.status).toBe(400);
      expect(error.type).toBe('invalid_request_error');
      expect(error.requestID).toMatch(/^req_/);
    });
  });
});

describe('@anthropic-ai/sdk 0.x (x-api-key credential, 2023-06-01)', () => {
  it('creates and streams', async () => {
    const legacy = new AnthropicLegacy({ baseURL: gw.url, apiKey: gw.clientKey, maxRetries: 0 });
    const message = await legacy.messages.create({
      model: 'sim-model',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Legacy hello' }],
    });
    expect(message.content[0].type).toBe('text');
    const streamed = await legacy.messages.stream({ model: 'sim-model', max_tokens: 200, messages: [{ role: 'user', content: 'Legacy stream' }] }).finalMessage();
    expect(streamed.stop_reason).toBe('end_turn');
  });
});

describe('@ai-sdk/anthropic with ai', () => {
  const provider = () => createAnthropic({ baseURL: `${gw.url}/v1`, apiKey: gw.clientKey });

  it('generates text', async () => {
    const result = await generateText({ model: provider()('sim-model'), prompt: 'AI SDK hello', maxRetries: 0 });
    expect(result.text).toContain('AI SDK hello');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('streams text', async () => {
    const result = streamText({ model: provider()('sim-model'), prompt: 'AI SDK stream', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      parts.push(part.type);
    }
    expect(await result.text).toContain('AI SDK stream');
    expect(await result.finishReason).toBe('stop');
    expect(parts).toContain('text-delta');
  });

  it('runs a tool round trip across two steps', async () => {
    const calls: unknown[] = [];
    const result = await generateText({
      model: provider()('sim-model'),
      prompt: 'Please call get_weather for Rome',
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools: {
        get_weather: tool({
          description: 'Current weather',
          inputSchema: jsonSchema<{ city: string }>({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          }),
          execute: async (input) => {
            calls.push(input);
            return 'cloudy, 15 degrees';
          },
        }),
      },
    });
    expect(calls).toHaveLength(1);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toContain('cloudy, 15 degrees');
  });

  it('surfaces errors as APICallError with the status', async () => {
    const bad = createAnthropic({ baseURL: `${gw.url}/v1`, apiKey: 'sk-wrong' });
    const failure = await generateText({ model: bad('sim-model'), prompt: 'hi', maxRetries: 0 }).catch((error) => error);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure.statusCode).toBe(401);
    expect(failure.message).toContain('invalid API key');
  });
});
