/**
 * Remote compaction in the Responses family, without a gateway: the sealed
 * compaction item and what opens it, the summarising request an upstream
 * that cannot compact gets, how later turns read a compaction, and the
 * streamed answer's events.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { responseToEvents } from '../../../src/core/stream-fold.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { COMPACTION_PROMPT, summarisingRequest } from '../../../src/families/responses/compaction.js';
import { CompactionStreamEncoder } from '../../../src/families/responses/compaction-stream.js';
import { currentItems } from '../../../src/families/responses/conversation.js';
import { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { emptyHistory } from '../../../src/families/responses/history.js';
import { inputAsItems } from '../../../src/families/responses/items.js';
import { responsesToCore } from '../../../src/families/responses/to-core.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { ResponseRepository, StoredResponse } from '../../../src/storage/responses.js';
import { parseSse } from './support.js';

const sealer = new ReasoningSealer(Buffer.alloc(32, 9));
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const trigger = { type: 'compaction_trigger' };
const tool = { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } };

function open(body: Record<string, unknown>, key = sealer) {
  const saved: StoredResponse[] = [];
  const repository = { save: async (record: StoredResponse) => void saved.push(record) } as unknown as ResponseRepository;
  const request = parseResponsesRequest({ model: 'm', ...body });
  const current = currentItems(inputAsItems(request.input), emptyHistory);
  const exchange = new ResponsesExchange({
    request,
    keyId: 'k',
    history: emptyHistory,
    current,
    repository,
    onRecordError: (error) => {
      throw error;
    },
    sealer: key,
  });
  const core = () => responsesToCore(request, current, { toolNames: exchange.toolNames, openSummary: exchange.openSummary });
  return { exchange, core, saved };
}

const lastText = (request: ChatRequest) => {
  const last = request.messages.at(-1)!;
  const part = last.content.at(-1)!;
  return { role: last.role, text: part.type === 'text' ? part.text : undefined };
};

describe('the compaction item', () => {
  it("holds the summary sealed; only this gateway's key opens it, and only as a compaction", () => {
    const { exchange } = open({ input: 'hi' });
    const item = { ...exchange.compactionOutput('the summary') };
    expect(item).toMatchObject({ type: 'compaction', id: expect.stringMatching(/^cmp_/), encrypted_content: expect.stringMatching(/^swy1/) });
    expect(item.encrypted_content).not.toContain('summary');
    expect(exchange.openSummary(item)).toBe('the summary');
    expect(open({ input: 'hi' }, new ReasoningSealer(Buffer.alloc(32, 1))).exchange.openSummary(item)).toBeUndefined();
    const reasoningToken = sealer.seal({ origin: 'anthropic', kind: 'thinking', value: 'sig' });
    expect(exchange.openSummary({ type: 'compaction', encrypted_content: reasoningToken })).toBeUndefined();
    expect(exchange.openSummary({ type: 'compaction', encrypted_content: 'openai-state' })).toBeUndefined();
  });
});

describe('the summarising request', () => {
  it('is asked when the input ends with the trigger: the hand-off prompt last, tools declared but not callable', () => {
    const { exchange, core } = open({ input: [user('fix the bug'), trigger], tools: [tool], text: { format: { type: 'json_object' } } });
    expect(exchange.compacting).toBe(true);
    const request = core();
    expect(lastText(request)).toEqual({ role: 'user', text: COMPACTION_PROMPT });
    expect(request.messages).toHaveLength(1);
    expect(request.toolChoice).toEqual({ type: 'none' });
    expect(request.tools).toHaveLength(1);
    expect(request.responseFormat).toBeUndefined();
    expect(request.features?.responses?.['input item compaction_trigger']).toBeUndefined();
  });

  it('follows a tool result or an answer as a turn of its own', () => {
    const history: ChatRequest = {
      model: 'm',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
      ],
    };
    const request = summarisingRequest(history);
    expect(request.messages).toHaveLength(3);
    expect(lastText(request)).toEqual({ role: 'user', text: COMPACTION_PROMPT });
    expect(request.toolChoice).toBeUndefined();
    expect(history.messages).toHaveLength(2);
  });

  it('asks for no reasoning, which would spend a small output budget on thoughts instead of the summary', () => {
    const request = summarisingRequest({ model: 'm', stream: false, maxTokens: 64, thinking: { enabled: true, effort: 'low' }, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }] });
    expect(request.thinking).toBeUndefined();
    expect(request.maxTokens).toBe(64);
  });

  it("is not asked for a trigger that is not last (an earlier turn's)", () => {
    const { exchange, core } = open({ input: [user('a'), trigger, user('b')] });
    expect(exchange.compacting).toBe(false);
    expect(lastText(core())).toEqual({ role: 'user', text: 'b' });
  });
});

describe('a later turn', () => {
  it('reads a compaction the gateway sealed as its summary, user text', () => {
    const item = { ...open({ input: 'hi' }).exchange.compactionOutput('SUMMARY-1') };
    const request = open({ input: [user('first ask'), item, user('go on')] }).core();
    const text = JSON.stringify(request.messages);
    expect(text).toContain('SUMMARY-1');
    expect(text).not.toContain('swy1');
    expect(request.features).toBeUndefined();
  });

  it("names OpenAI's own compaction item as a feature only a native upstream has", () => {
    const request = open({ input: [user('a'), { type: 'compaction', id: 'cmp_1', encrypted_content: 'openai-state' }] }).core();
    expect(request.features?.responses).toEqual({ 'input item compaction': true });
  });
});

describe('Codex 0.171 items beside compaction', () => {
  it('leaves a configuration_update note out as a hint', () => {
    const request = open({ input: [user('a'), { type: 'configuration_update', reasoning: { effort: 'low' } }], reasoning: { effort: 'low' } }).core();
    expect(request.hints).toEqual({ 'input item configuration_update': true });
    expect(request.features).toBeUndefined();
    expect(request.messages).toHaveLength(1);
  });
});

describe('CompactionStreamEncoder', () => {
  const usage = { inputTokens: 30, outputTokens: 8, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const events = (): ChatEvent[] => [
    ...responseToEvents({
      id: 'u',
      model: 'm',
      content: [
        { type: 'thinking', text: 'hmm' },
        { type: 'text', text: 'SUM' },
        { type: 'text', text: 'MARY' },
      ],
      finishReason: 'stop',
      usage,
    }),
  ];

  it('shows no text: created, in_progress, the one compaction item, completed with usage; the response is recorded', async () => {
    const { exchange, saved } = open({ input: [user('a'), trigger] });
    const encoder = new CompactionStreamEncoder(exchange);
    let out = '';
    for (const event of events()) out += await encoder.encode(event);
    out += encoder.close();
    const parsed = parseSse(out).map((event) => event.data as Record<string, any>);
    expect(parsed.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(parsed.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4]);
    const item = parsed[3]!.item;
    expect(exchange.openSummary(item)).toBe('SUMMARY');
    expect(parsed[4]!.response).toMatchObject({ status: 'completed', output: [item], usage: { input_tokens: 30, output_tokens: 8 } });
    expect(saved).toHaveLength(1);
  });

  it('an upstream that wrote no summary failed the compaction (no empty item)', async () => {
    const { exchange } = open({ input: [user('a'), trigger] });
    expect(() => exchange.compactionOutput('  ')).toThrow(/no summary/);
    const encoder = new CompactionStreamEncoder(exchange);
    let out = '';
    for (const event of responseToEvents({ id: 'u', model: 'm', content: [{ type: 'tool_call', id: 'c', name: 'f', input: {} }], finishReason: 'tool_use', usage })) out += await encoder.encode(event);
    const parsed = parseSse(out).map((event) => event.data as Record<string, any>);
    expect(parsed.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(parsed[2]!.message).toMatch(/no summary/);
  });

  it('a failure gives error and response.failed, with no compaction item', async () => {
    const { exchange } = open({ input: [user('a'), trigger] });
    const encoder = new CompactionStreamEncoder(exchange);
    let out = await encoder.encode(events()[0]!);
    out += encoder.error(new GatewayError('upstream_error', 'the upstream broke'));
    const parsed = parseSse(out).map((event) => event.data as Record<string, any>);
    expect(parsed.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(parsed.at(-1)!.response.output).toEqual([]);
  });
});
