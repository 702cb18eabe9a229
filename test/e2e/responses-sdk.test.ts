/**
 * Family E with the official clients, unchanged, against a gateway on the
 * embedded default (SQLite + the built-in simulator, a translating upstream):
 * the openai SDK 7.x (create, stream().finalResponse(), tool round trips,
 * json_schema, chaining, retrieve/delete/input_items, errors) and
 * @ai-sdk/openai with ai (plain, streaming, tools, errors).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStreamDiscipline, postResponses, streamEvents } from '../families/responses/support.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let client: OpenAI;

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  strict: true,
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};

beforeAll(async () => {
  gw = await startGateway();
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.clientKey, maxRetries: 0 });
});
afterAll(async () => gw?.close());

describe('openai 7.x: responses.create and responses.stream()', () => {
  it('creates a response with every field of the object', async () => {
    const response = await client.responses.create({ model: 'sim-model', input: 'Hello there, gateway', service_tier: 'flex' });
    expect(response.id).toMatch(/^resp_/);
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.model).toBe('sim-model');
    expect(response.output_text).toContain('Hello there, gateway');
    expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(response.output[0].id).toMatch(/^msg_/);
    expect(response).toMatchObject({
      error: null,
      incomplete_details: null,
      instructions: null,
      parallel_tool_calls: true,
      previous_response_id: null,
      store: true,
      temperature: 1,
      top_p: 1,
      truncation: 'disabled',
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
      reasoning: { effort: null, summary: null },
      metadata: {},
      service_tier: 'flex',
    });
    expect(response.usage).toMatchObject({ input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } });
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    expect(response._request_id).toMatch(/^req_/);
  });

  it('leaves service_tier out when the request did not set it', async () => {
    const response = await client.responses.create({ model: 'sim-model', input: 'no tier' });
    expect('service_tier' in response).toBe(false);
  });

  it('streams with responses.stream().finalResponse()', async () => {
    const stream = client.responses.stream({ model: 'sim-model', input: 'Stream this please' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(final.output_text);
    expect(final.output_text).toContain('Stream this please');
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  it('keeps the strict stream discipline, with a sequence number on every event', async () => {
    const events = await streamEvents(gw.url, gw.clientKey, {
      model: 'sim-model',
      input: 'Use get_weather for Paris',
      tools: [weatherTool],
      reasoning: { effort: 'low', summary: 'auto' },
    });
    checkStreamDiscipline(events);
    const types = events.map((event) => event.data.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(events[0].data.response).toMatchObject({ status: 'in_progress', output: [], usage: null });
  });

  it('stops at max_output_tokens with status incomplete, plain and streamed', async () => {
    const plain = await client.responses.create({ model: 'sim-model', input: 'Tell me a long story', max_output_tokens: 5 });
    expect(plain.status).toBe('incomplete');
    expect(plain.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(plain.usage!.output_tokens).toBeLessThanOrEqual(5);
    const streamed = await client.responses.stream({ model: 'sim-model', input: 'Tell me a long story', max_output_tokens: 5 }).finalResponse();
    expect(streamed.status).toBe('incomplete');
    expect((streamed.output[0] as { status?: string }).status).toBe('incomplete');
  });
});

describe('openai 7.x: function calls and structured output', () => {
  it('runs a function-call round trip by sending the items back', async () => {
    const first = await client.responses.create({ model: 'sim-model', input: 'Use get_weather for Paris', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function_call');
    expect(call.id).toMatch(/^fc_/);
    expect(call.name).toBe('get_weather');
    const args = JSON.parse(call.arguments);
    expect(['celsius', 'fahrenheit']).toContain(args.unit);

    const second = await client.responses.create({
      model: 'sim-model',
      tools: [weatherTool],
      store: false,
      input: [
        { role: 'user', content: 'Use get_weather for Paris' },
        ...first.output,
        { type: 'function_call_output', call_id: call.call_id, output: '21 degrees and sunny' },
      ] as OpenAI.Responses.ResponseInputItem[],
    });
    expect(second.output_text).toContain('21 degrees and sunny');
  });

  it('streams a forced function call whose arguments parse', async () => {
    const final = await client.responses
      .stream({ model: 'sim-model', input: 'What is it like outside?', tools: [weatherTool], tool_choice: { type: 'function', name: 'get_weather' } })
      .finalResponse();
    const call = final.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && typeof JSON.parse(call.arguments).city).toBe('string');
  });

  it('answers json_schema output with JSON that fits the schema', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
      required: ['answer', 'confidence'],
      additionalProperties: false,
    };
    const response = await client.responses.create({
      model: 'sim-model',
      input: 'Is the sky blue?',
      text: { format: { type: 'json_schema', name: 'verdict', schema, strict: true } },
    });
    const parsed = JSON.parse(response.output_text);
    expect(typeof parsed.answer).toBe('string');
    expect(typeof parsed.confidence).toBe('number');
    expect(response.text!.format).toMatchObject({ type: 'json_schema', name: 'verdict', strict: true });
    const streamed = await client.responses.stream({ model: 'sim-model', input: 'Is the sky blue?', text: { format: { type: 'json_schema', name: 'verdict', schema, strict: true } } }).finalResponse();
    expect(typeof JSON.parse(streamed.output_text).answer).toBe('string');
  });
});

describe('openai 7.x: stored responses and chaining', () => {
  it('continues a conversation with previous_response_id, without the earlier instructions', async () => {
    const first = await client.responses.create({ model: 'sim-model', input: 'My name is Ada', instructions: 'Be terse' });
    const second = await client.responses.create({ model: 'sim-model', input: 'What did I say?', previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.instructions).toBeNull();
    expect(second.output_text).toContain('What did I say?');
    // The earlier turn was sent again: the prompt now holds both turns (and not the old instructions).
    const alone = await client.responses.create({ model: 'sim-model', input: 'What did I say?', store: false });
    expect(second.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens + first.usage!.output_tokens);
  });

  it('chains a function-call round trip through previous_response_id, streamed', async () => {
    const first = await client.responses.stream({ model: 'sim-model', input: 'Use get_weather for Oslo', tools: [weatherTool] }).finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function_call');
    const second = await client.responses
      .stream({
        model: 'sim-model',
        tools: [weatherTool],
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'snowing, -3 degrees' }],
      })
      .finalResponse();
    expect(second.status).toBe('completed');
    expect(second.output_text).toContain('snowing, -3 degrees');
  });

  it('retrieves, lists input items and deletes', async () => {
    const created = await client.responses.create({
      model: 'sim-model',
      input: [
        { role: 'user', content: 'first question' },
        { role: 'user', content: [{ type: 'input_text', text: 'second question' }] },
      ],
      metadata: { ticket: 'T-1' },
    });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.output_text).toBe(created.output_text);
    expect(retrieved.metadata).toEqual({ ticket: 'T-1' });

    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(2);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
    expect(items.data.every((item) => typeof item.id === 'string' && item.id.length > 0)).toBe(true);
    const ascending = await client.responses.inputItems.list(created.id, { order: 'asc', limit: 1 });
    expect(ascending.data).toHaveLength(1);
    expect(ascending.has_more).toBe(true);
    expect(JSON.stringify(ascending.data[0])).toContain('first question');
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { order: 'asc', limit: 1 })) all.push(item.id!);
    expect(all).toHaveLength(2);

    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('keeps nothing when store is false', async () => {
    const response = await client.responses.create({ model: 'sim-model', input: 'forget me', store: false });
    expect((response as { store?: boolean }).store).toBe(false);
    await expect(client.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const chained = client.responses.create({ model: 'sim-model', input: 'again', previous_response_id: response.id });
    await expect(chained).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('scopes stored responses to the key that created them', async () => {
    const other = await gw.admin('POST', '/keys', { name: 'responses-other' });
    const otherClient = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: other.body.key, maxRetries: 0 });
    const mine = await client.responses.create({ model: 'sim-model', input: 'private' });
    const failure = await otherClient.responses.create({ model: 'sim-model', input: 'peek', previous_response_id: mine.id }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('previous_response_not_found');
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('previous_response_id');
    await expect(otherClient.responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.responses.delete(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('shows reasoning summaries, and encrypted content only when included', async () => {
    const request = { model: 'sim-model', input: 'Think about the sky', reasoning: { effort: 'low' as const, summary: 'auto' as const } };
    const plain = await client.responses.create(request);
    const reasoning = plain.output[0];
    if (reasoning.type !== 'reasoning') throw new Error('expected reasoning first');
    expect(reasoning.summary[0].text.length).toBeGreaterThan(0);
    expect('encrypted_content' in reasoning).toBe(false);
    expect(plain.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    const included = await client.responses.create({ ...request, include: ['reasoning.encrypted_content'] });
    // The simulator's signature, sealed by the gateway (see core/reasoning-state.ts).
    expect((included.output[0] as { encrypted_content?: string }).encrypted_content).toMatch(/^swy1[A-Za-z0-9+/]+=*$/);
  });
});

describe('openai 7.x: errors', () => {
  it('maps errors to the typed exceptions with the OpenAI error shape', async () => {
    const badKey = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(badKey.responses.create({ model: 'm', input: 'hi' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    const invalid = await client.responses.create({ model: 'm', input: 'hi', temperature: 3 }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
    const error = invalid as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe('temperature');
    expect(error.requestID).toMatch(/^req_/);
  });

  it('leaves out a hosted tool the simulator cannot run, and refuses it only when tool_choice forces it', async () => {
    const { response } = await client.responses.create({ model: 'sim-model', input: 'search the web', tools: [{ type: 'web_search_preview' }] }).withResponse();
    expect(response.headers.get('x-switchyard-translation')).toBe('ignored=tool web_search_preview');
    const failure = await client.responses
      .create({ model: 'sim-model', input: 'search the web', tools: [{ type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain('web_search_preview');
    expect((failure as Error).message).toContain('simulator');
  });

  it('sends x-request-id on every answer, errors included', async () => {
    const response = await postResponses(gw.url, gw.clientKey, { model: 'm' });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  });
});

describe('@ai-sdk/openai with ai (the default openai(model) speaks this dialect)', () => {
  const provider = () => createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.clientKey });

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

  for (const mode of ['generate', 'stream'] as const) {
    it(`runs a tool round trip across two steps (${mode}, item references resolved from the store)`, async () => {
      const calls: unknown[] = [];
      const sent: Array<{ input: Array<{ type?: string }> }> = [];
      const recording = createOpenAI({
        baseURL: `${gw.url}/v1`,
        apiKey: gw.clientKey,
        fetch: async (url, init) => {
          sent.push(JSON.parse(String(init?.body)));
          return fetch(url, init);
        },
      });
      const options = {
        model: recording('sim-model'),
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
      };
      let text: string;
      if (mode === 'generate') {
        const result = await generateText(options);
        expect(result.steps).toHaveLength(2);
        text = result.text;
      } else {
        const result = streamText(options);
        for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
        expect(await result.finishReason).toBe('stop');
        text = await result.text;
      }
      expect(calls).toHaveLength(1);
      expect(text).toContain('cloudy, 15 degrees');
      // The second step names the first step's assistant message by reference only.
      expect(sent[1].input.map((item) => item.type)).toContain('item_reference');
    });
  }

  it('surfaces errors as APICallError with the status and message', async () => {
    const bad = createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-wrong' });
    const failure = await generateText({ model: bad('sim-model'), prompt: 'hi', maxRetries: 0 }).catch((error) => error);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure.statusCode).toBe(401);
    expect(failure.message).toContain('invalid API key');
  });
});
