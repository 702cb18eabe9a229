/**
 * Family D with the official clients, unchanged, against a gateway on the
 * embedded default (SQLite + the built-in simulator): @google/genai 3.x on its
 * default `/v1` path, the 2.x line on `/v1beta`, and @ai-sdk/google with `ai`.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { ApiError, GoogleGenAI, Type, type Content } from '@google/genai';
import { APICallError, generateText, isStepCount, jsonSchema, Output, streamText, tool } from 'ai';
import { Ajv } from 'ajv';
import { GoogleGenAI as LegacyGoogleGenAI } from 'google-genai-legacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.close());

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: Type.OBJECT,
    properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};

const recipeSchema = {
  type: Type.OBJECT,
  properties: {
    name: { type: Type.STRING },
    servings: { type: Type.INTEGER, minimum: 1 },
    tags: { type: Type.ARRAY, items: { type: Type.STRING } },
    vegetarian: { type: Type.BOOLEAN, nullable: true },
  },
  required: ['name', 'servings', 'tags'],
};

const recipeJsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    servings: { type: 'integer', minimum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    vegetarian: { type: ['boolean', 'null'] },
  },
  required: ['name', 'servings', 'tags'],
  additionalProperties: false,
};

const clients = [
  { name: '@google/genai 3.x (default /v1 path)', make: (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gw.url } }) },
  {
    name: '@google/genai 2.x (default /v1beta path)',
    make: (apiKey: string) => new LegacyGoogleGenAI({ apiKey, httpOptions: { baseUrl: gw.url } }) as unknown as GoogleGenAI,
  },
];

describe.each(clients)('$name', ({ make }) => {
  const client = () => make(gw.clientKey);

  it('generates content', async () => {
    const response = await client().models.generateContent({ model: 'sim-model', contents: 'Hello from the official client' });
    expect(response.text).toContain('Hello from the official client');
    expect(response.candidates?.[0].finishReason).toBe('STOP');
    expect(response.candidates?.[0].index).toBe(0);
    expect(response.modelVersion).toBe('sim-model');
    expect(response.responseId).toMatch(/^sim_/);
    const usage = response.usageMetadata!;
    expect(usage.promptTokenCount).toBeGreaterThan(0);
    expect(usage.candidatesTokenCount).toBeGreaterThanOrEqual(24);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount!);
  });

  it('accepts the models/ prefix on the model name', async () => {
    const response = await client().models.generateContent({ model: 'models/sim-model', contents: 'prefixed' });
    expect(response.text).toContain('prefixed');
  });

  it('streams chunks, the last with finishReason and usage', async () => {
    const stream = await client().models.generateContentStream({ model: 'sim-model', contents: 'Stream these words' });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toContain('Stream these words');
    const last = chunks.at(-1)!;
    expect(last.candidates?.[0].finishReason).toBe('STOP');
    expect(last.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
  });

  it('follows the system instruction and generation config', async () => {
    const response = await client().models.generateContent({
      model: 'sim-model',
      contents: 'Tell me a long story',
      config: { systemInstruction: 'Be brief.', maxOutputTokens: 5, temperature: 0.2, topP: 0.9, topK: 20, seed: 7 },
    });
    expect(response.candidates?.[0].finishReason).toBe('MAX_TOKENS');
    expect(response.usageMetadata?.candidatesTokenCount).toBeLessThanOrEqual(5);
    const stopped = await client().models.generateContent({
      model: 'sim-model',
      contents: 'Tell me a long story',
      config: { stopSequences: ['said'] },
    });
    expect(stopped.text).not.toContain('said');
    expect(stopped.candidates?.[0].finishReason).toBe('STOP');
  });

  it('runs a function calling round trip', async () => {
    const config = { tools: [{ functionDeclarations: [weather] }] };
    const user: Content = { role: 'user', parts: [{ text: 'Use get_weather for Paris' }] };
    const first = await client().models.generateContent({ model: 'sim-model', contents: [user], config });
    const call = first.functionCalls?.[0];
    expect(call?.name).toBe('get_weather');
    expect(typeof call?.args?.city).toBe('string');
    expect(['celsius', 'fahrenheit']).toContain(call?.args?.unit);
    expect(first.candidates?.[0].finishReason).toBe('STOP');

    const second = await client().models.generateContent({
      model: 'sim-model',
      contents: [user, first.candidates![0].content!, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '21 degrees and sunny' } } }] }],
      config,
    });
    expect(second.functionCalls).toBeUndefined();
    expect(second.text).toContain('21 degrees and sunny');
  });

  it('streams a forced function call', async () => {
    const stream = await client().models.generateContentStream({
      model: 'sim-model',
      contents: 'What is it like outside?',
      config: {
        tools: [{ functionDeclarations: [weather] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['get_weather'] } },
      },
    });
    const calls = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toHaveLength(1);
    expect(calls[0].name).toBe('get_weather');
    expect(typeof calls[0].args?.city).toBe('string');
  });

  it('answers JSON valid against responseSchema, and against responseJsonSchema', async () => {
    const response = await client().models.generateContent({
      model: 'sim-model',
      contents: 'A pasta recipe',
      config: { responseMimeType: 'application/json', responseSchema: recipeSchema },
    });
    const validate = new Ajv().compile(recipeJsonSchema);
    expect(validate(JSON.parse(response.text!))).toBe(true);

    const viaJsonSchema = await client().models.generateContent({
      model: 'sim-model',
      contents: 'A soup recipe',
      config: { responseMimeType: 'application/json', responseJsonSchema: recipeJsonSchema },
    });
    expect(validate(JSON.parse(viaJsonSchema.text!))).toBe(true);
  });

  it('answers a bare enum value for text/x.enum', async () => {
    const response = await client().models.generateContent({
      model: 'sim-model',
      contents: 'Pick an instrument',
      config: { responseMimeType: 'text/x.enum', responseSchema: { type: Type.STRING, enum: ['drums', 'flute', 'piano'] } },
    });
    expect(['drums', 'flute', 'piano']).toContain(response.text);
  });

  it('returns thoughts as thought parts when includeThoughts is set, and hides them otherwise', async () => {
    const shown = await client().models.generateContent({
      model: 'sim-model',
      contents: 'Think about the sky',
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    const parts = shown.candidates![0].content!.parts!;
    expect(parts[0].thought).toBe(true);
    expect(parts[0].text?.length).toBeGreaterThan(0);
    expect(parts.some((part) => !part.thought && part.text)).toBe(true);
    expect(shown.usageMetadata?.thoughtsTokenCount).toBeGreaterThan(0);

    const hidden = await client().models.generateContent({
      model: 'sim-model',
      contents: 'Think about the sky',
      config: { thinkingConfig: { thinkingBudget: 1024 } },
    });
    expect(hidden.candidates![0].content!.parts!.some((part) => part.thought)).toBe(false);
    expect(hidden.usageMetadata?.thoughtsTokenCount).toBeGreaterThan(0);
  });

  it('keeps a multi-turn chat with streamed function calls and hidden thoughts', async () => {
    const chat = client().chats.create({
      model: 'sim-model',
      config: { tools: [{ functionDeclarations: [weather] }], thinkingConfig: { thinkingBudget: 512 } },
    });
    const calls = [];
    for await (const chunk of await chat.sendMessageStream({ message: 'Use get_weather for Paris' })) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toHaveLength(1);
    const answer = await chat.sendMessage({ message: [{ functionResponse: { id: calls[0].id, name: 'get_weather', response: { output: 'mild' } } }] });
    expect(answer.text).toContain('The tool returned: mild');
    // The client keeps each streamed chunk as its own model turn; the gateway merges them back.
    const history = chat.getHistory();
    const roles = history.map((content) => content.role);
    expect(roles[0]).toBe('user');
    expect(roles.at(-1)).toBe('model');
    expect(roles.filter((role) => role === 'user')).toHaveLength(2);
    // The hidden thought went back inside a signature of the model turn.
    expect(history.some((content) => content.parts?.some((part) => part.thoughtSignature))).toBe(true);
  });

  it('maps errors to ApiError with the status and the service error body', async () => {
    const badKey = make('AIza-wrong');
    const unauthenticated = await badKey.models.generateContent({ model: 'sim-model', contents: 'hi' }).catch((error) => error);
    expect(unauthenticated).toBeInstanceOf(Error);
    expect(unauthenticated.status).toBe(401);
    expect(JSON.parse(unauthenticated.message)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });

    const invalid = await client()
      .models.generateContent({ model: 'sim-model', contents: 'hi', config: { temperature: 3 } })
      .catch((error) => error);
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.message).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(JSON.parse(invalid.message).error.message).toContain('temperature');

    const unsupported = await client()
      .models.generateContent({ model: 'sim-model', contents: 'hi', config: { candidateCount: 2 } })
      .catch((error) => error);
    expect(unsupported.status).toBe(400);
    expect(JSON.parse(unsupported.message).error.message).toContain('candidateCount');
  });
});

describe('ApiError class', () => {
  it('is what the current client throws', async () => {
    const failure = await new GoogleGenAI({ apiKey: 'AIza-wrong', httpOptions: { baseUrl: gw.url } }).models.generateContent({ model: 'sim-model', contents: 'hi' }).catch((error) => error);
    expect(failure).toBeInstanceOf(ApiError);
  });
});

describe('@ai-sdk/google with ai', () => {
  const provider = (apiKey = gw.clientKey) => createGoogleGenerativeAI({ baseURL: `${gw.url}/v1beta`, apiKey });

  it('generates text', async () => {
    const result = await generateText({ model: provider()('sim-model'), prompt: 'AI SDK hello', maxRetries: 0 });
    expect(result.text).toContain('AI SDK hello');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streams text with a system prompt', async () => {
    const result = streamText({ model: provider()('sim-model'), system: 'Be brief.', prompt: 'AI SDK stream', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      parts.push(part.type);
    }
    expect(await result.text).toContain('AI SDK stream');
    expect(await result.finishReason).toBe('stop');
    expect(parts).toContain('text-delta');
  });

  it('runs a tool round trip across two steps, plain and streamed', async () => {
    const calls: unknown[] = [];
    const tools = {
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
    };
    const result = await generateText({
      model: provider()('sim-model'),
      prompt: 'Please call get_weather for Rome',
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools,
    });
    expect(calls).toHaveLength(1);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.text).toContain('cloudy, 15 degrees');

    const streamed = streamText({
      model: provider()('sim-model'),
      prompt: 'Please call get_weather for Oslo',
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools,
    });
    for await (const part of streamed.fullStream) if (part.type === 'error') throw part.error;
    expect(calls).toHaveLength(2);
    expect(await streamed.text).toContain('cloudy, 15 degrees');
  });

  it('generates an object valid against the JSON schema', async () => {
    const result = await generateText({
      model: provider()('sim-model'),
      prompt: 'A recipe',
      output: Output.object({ schema: jsonSchema<Record<string, unknown>>(recipeJsonSchema as never) }),
      maxRetries: 0,
    });
    expect(new Ajv().compile(recipeJsonSchema)(result.output)).toBe(true);
  });

  it('returns reasoning when thoughts are requested', async () => {
    const result = await generateText({
      model: provider()('sim-model'),
      prompt: 'Reason about tides',
      maxRetries: 0,
      providerOptions: { google: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } },
    });
    expect(result.reasoningText?.length).toBeGreaterThan(0);
    expect(result.text).toContain('Reason about tides');
    expect(result.usage.outputTokenDetails?.reasoningTokens ?? 0).toBeGreaterThan(0);
  });

  it('surfaces errors as APICallError with the status and message', async () => {
    const failure = await generateText({ model: provider('AIza-wrong')('sim-model'), prompt: 'hi', maxRetries: 0 }).catch((error) => error);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure.statusCode).toBe(401);
    expect(failure.message).toContain('invalid API key');
  });
});
