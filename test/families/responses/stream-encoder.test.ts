/**
 * The Responses stream encoder and plain renderer: the same items either way,
 * the strict event discipline, refusals, redacted thinking, unfinished
 * streams, the answer recorded before the terminal event, and the echoed
 * settings with their defaults (checked against the official schema).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse } from '../../../src/core/chat.js';
import { responseToEvents as responsesToEvents } from '../../../src/core/stream-fold.js';
import { GatewayError } from '../../../src/core/errors.js';
import { sealResponse } from '../../../src/core/reasoning-seal.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { emptyHistory } from '../../../src/families/responses/history.js';
import { baseResponse } from '../../../src/families/responses/response-object.js';
import { ResponsesStreamEncoder } from '../../../src/families/responses/stream-encoder.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { ResponseRepository, StoredResponse } from '../../../src/storage/responses.js';
import { openApi } from './openapi.js';
import { checkStreamDiscipline, parseSse } from './support.js';

function exchange(body: Record<string, unknown> = {}) {
  const saved: StoredResponse[] = [];
  const repository = { save: async (record: StoredResponse) => void saved.push(record) } as unknown as ResponseRepository;
  const request = parseResponsesRequest({ model: 'm', input: 'hi', ...body });
  const value = new ResponsesExchange({
    request,
    keyId: 'k',
    history: emptyHistory,
    current: [],
    repository,
    onRecordError: (error) => {
      throw error;
    },
    sealer: new ReasoningSealer(Buffer.alloc(32, 7)),
  });
  return { exchange: value, saved };
}

async function encodeAll(encoder: ResponsesStreamEncoder, events: Iterable<ChatEvent>): Promise<string> {
  let out = '';
  for (const event of events) out += await encoder.encode(event);
  return out + encoder.close();
}

const usage = { inputTokens: 10, outputTokens: 20, cacheReadTokens: 4, cacheWriteTokens: 0, reasoningTokens: 5 };
const answer: ChatResponse = {
  id: 'up_1',
  model: 'm',
  content: [
    { type: 'thinking', text: 'pondering', signature: 'sig' },
    { type: 'text', text: 'first part' },
    { type: 'text', text: 'second part' },
    { type: 'tool_call', id: 'call_1', name: 'f', input: { a: 1 } },
    { type: 'text', text: 'after the call' },
  ],
  finishReason: 'tool_use',
  usage,
};

/** The answer as the pipeline hands a translated one to the family: its reasoning state sealed. */
const sealer = new ReasoningSealer(Buffer.alloc(32, 7));
const sealed = (response: ChatResponse) => sealResponse(response, sealer, { origin: 'anthropic', carryText: false });

const shape = (items: Array<Record<string, any>>) => items.map((item) => ({ ...item, id: item.id.slice(0, item.id.indexOf('_')) }));

describe('ResponsesStreamEncoder', () => {
  it('builds the same items as the plain renderer, with the strict discipline', async () => {
    const streamed = exchange({ reasoning: { summary: 'auto' } });
    const events = parseSse(await encodeAll(new ResponsesStreamEncoder(streamed.exchange), responsesToEvents(answer)));
    checkStreamDiscipline(events);
    const final = events.at(-1)!.data.response;
    const plain = await exchange({ reasoning: { summary: 'auto' } }).exchange.completePlain(answer);
    expect(shape(final.output)).toEqual(shape(plain.output as Array<Record<string, any>>));
    expect(final.output.map((item: { type: string }) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'message']);
    expect(final.output[1].content.map((part: { text: string }) => part.text)).toEqual(['first part', 'second part']);
    expect(final.usage).toEqual({
      input_tokens: 14,
      input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 5 },
      total_tokens: 34,
    });
    for (const event of events) openApi().event(event.data);
  });

  it('records the answer (encrypted reasoning included) before its terminal event', async () => {
    const { exchange: value, saved } = exchange({ reasoning: { summary: 'auto' } });
    const encoder = new ResponsesStreamEncoder(value);
    const events = [...responsesToEvents(sealed(answer))];
    for (const event of events.slice(0, -1)) expect(typeof encoder.encode(event)).toBe('string');
    const last = encoder.encode(events.at(-1)!);
    expect(last).toBeInstanceOf(Promise);
    const text = await last;
    expect(saved).toHaveLength(1);
    expect(text).toContain('response.completed');
    const stored = saved[0].response.output![0] as { encrypted_content?: string };
    expect(sealer.open(stored.encrypted_content!)).toEqual({ origin: 'anthropic', kind: 'thinking', value: 'sig' });
    expect(text).not.toContain(stored.encrypted_content);
  });

  it('ends a refusal without text with a refusal part', async () => {
    const refusal: ChatResponse = { id: 'x', model: 'm', content: [], finishReason: 'refusal', usage };
    const events = parseSse(await encodeAll(new ResponsesStreamEncoder(exchange().exchange), responsesToEvents(refusal)));
    checkStreamDiscipline(events);
    expect(events.map((event) => event.data.type)).toContain('response.refusal.done');
    expect(events.at(-1)!.data.response.output[0].content).toEqual([{ type: 'refusal', refusal: '' }]);
    const plain = await exchange().exchange.completePlain(refusal);
    expect((plain.output[0] as { content: unknown }).content).toEqual([{ type: 'refusal', refusal: '' }]);
  });

  it('turns redacted thinking into reasoning whose encrypted content carries it', async () => {
    const redacted: ChatResponse = {
      id: 'x',
      model: 'm',
      content: [
        { type: 'thinking', text: '', redactedData: 'opaque' },
        { type: 'text', text: 'ok' },
      ],
      finishReason: 'stop',
      usage,
    };
    const events = parseSse(await encodeAll(new ResponsesStreamEncoder(exchange({ include: ['reasoning.encrypted_content'] }).exchange), responsesToEvents(sealed(redacted))));
    const reasoning = events.at(-1)!.data.response.output[0];
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [] });
    expect(sealer.open(reasoning.encrypted_content)).toEqual({ origin: 'anthropic', kind: 'redacted', value: 'opaque' });
  });

  it('marks an answer cut at the limit as incomplete', async () => {
    const cut: ChatResponse = { id: 'x', model: 'm', content: [{ type: 'text', text: 'partial' }], finishReason: 'length', usage };
    const events = parseSse(await encodeAll(new ResponsesStreamEncoder(exchange().exchange), responsesToEvents(cut)));
    const last = events.at(-1)!.data;
    expect(last.type).toBe('response.incomplete');
    expect(last.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(last.response.output[0].status).toBe('incomplete');
  });

  it('fails a stream that ended without its finish, and one that broke', async () => {
    const events = [...responsesToEvents(answer)].slice(0, 5);
    const ended = parseSse(await encodeAll(new ResponsesStreamEncoder(exchange().exchange), events));
    expect(ended.slice(-2).map((event) => event.data.type)).toEqual(['error', 'response.failed']);
    checkStreamDiscipline(ended);

    const encoder = new ResponsesStreamEncoder(exchange().exchange);
    let text = '';
    for (const event of events) text += await encoder.encode(event);
    text += encoder.error(new GatewayError('rate_limited', 'slow down', { status: 429 }));
    const broke = parseSse(text);
    expect(broke.at(-2)!.data).toMatchObject({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down', param: null });
    expect(broke.at(-1)!.data.response).toMatchObject({ status: 'failed', error: { code: 'rate_limit_exceeded', message: 'slow down' } });
    for (const event of broke) openApi().event(event.data);
  });

  it('an encoder made after events went out only reports the failure', () => {
    const { exchange: value } = exchange();
    value.sequence = 7;
    const events = parseSse(new ResponsesStreamEncoder(value).error(new GatewayError('upstream_error', 'cut')));
    expect(events.map((event) => [event.data.type, event.data.sequence_number])).toEqual([
      ['error', 7],
      ['response.failed', 8],
    ]);
  });
});

describe('the echoed settings', () => {
  it('carry the defaults the spec names and validate as a Response', () => {
    const request = parseResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [
        { type: 'function', name: 'f', parameters: { type: 'object' } },
        { type: 'file_search', vector_store_ids: ['vs_1'] },
        { type: 'web_search_preview' },
        { type: 'web_search_preview_2025_03_11', search_context_size: 'high' },
        { type: 'computer_use_preview', display_height: 768, display_width: 1024, environment: 'browser' },
      ],
      reasoning: { generate_summary: 'concise' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' } } },
    });
    const response = baseResponse({ id: 'resp_1', createdAt: 1 }, request);
    expect(response.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object' }, description: null, strict: true },
      { type: 'file_search', vector_store_ids: ['vs_1'], filters: null, ranking_options: { ranker: 'auto', score_threshold: 0 } },
      { type: 'web_search_preview', search_context_size: 'medium', user_location: null },
      { type: 'web_search_preview_2025_03_11', search_context_size: 'high', user_location: null },
      { type: 'computer_use_preview', display_height: 768, display_width: 1024, environment: 'browser' },
    ]);
    expect(response.reasoning).toEqual({ effort: null, summary: 'concise' });
    expect(response.text.format).toEqual({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: false });
    expect('service_tier' in response).toBe(false);
    openApi().response(response);
  });
});
