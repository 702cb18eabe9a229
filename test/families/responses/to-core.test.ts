/** Responses request + conversation → internal ChatRequest, and the truncation rule. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { contextWindowFor } from '../../../src/core/context-windows.js';
import { currentItems, priorItems } from '../../../src/families/responses/conversation.js';
import { openRequestState } from '../../../src/core/reasoning-seal.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { emptyHistory, type History } from '../../../src/families/responses/history.js';
import { inputAsItems } from '../../../src/families/responses/items.js';
import { responsesToCore } from '../../../src/families/responses/to-core.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { StoredResponse } from '../../../src/storage/responses.js';
import { PNG_HEAD } from '../../support/media-samples.js';

function toCore(body: Record<string, unknown>, history: History = emptyHistory, contextWindow?: number): ChatRequest {
  const request = parseResponsesRequest({ model: 'm', ...body });
  const items = [...priorItems(history), ...currentItems(inputAsItems(request.input), history)];
  return responsesToCore(request, items, { contextWindow });
}

describe('responsesToCore', () => {
  it('maps the settings', () => {
    const core = toCore({
      input: 'hi',
      instructions: 'be brief',
      max_output_tokens: 50,
      temperature: 0.2,
      top_p: 0.8,
      parallel_tool_calls: false,
      user: 'u-1',
      stream: true,
      tools: [
        { type: 'function', name: 'f', description: 'd', parameters: { type: 'object' }, strict: true },
        { type: 'function', name: 'g' },
      ],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true, description: 'why' } },
      reasoning: { effort: 'high', generate_summary: 'auto' },
      service_tier: 'flex',
      prompt_cache_key: 'session-1',
    });
    expect(core).toEqual({
      model: 'm',
      system: 'be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: true,
      maxTokens: 50,
      temperature: 0.2,
      topP: 0.8,
      tools: [
        { type: 'function', name: 'f', description: 'd', parameters: { type: 'object' }, strict: true },
        { type: 'function', name: 'g', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true, description: 'why' },
      thinking: { enabled: true, effort: 'high', includeThoughts: true },
      user: 'u-1',
      hints: { service_tier: 'flex' },
      cache: { key: 'session-1' },
    });
  });

  it('converts a whole conversation of items into turns', () => {
    const sealer = new ReasoningSealer(Buffer.alloc(32, 3));
    const proof = sealer.seal({ origin: 'anthropic', kind: 'thinking', value: 'sig-1', text: 'the whole thought' });
    const core = toCore({
      input: [
        { role: 'system', content: 'sys one' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'look' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG_HEAD}` },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: proof },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'two' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { role: 'developer', content: [{ type: 'input_text', text: 'dev two' }] },
        { role: 'user', content: 'next' },
      ],
      instructions: 'first',
    });
    expect(core.system).toBe('first\n\nsys one');
    // The family hands the sealed proof on; the pipeline opens it (thought, signature, origin).
    expect(core.messages[1].content[0]).toEqual({ type: 'thinking', text: '', signature: proof });
    expect(openRequestState(core, sealer).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'media', mediaType: 'image/png', data: PNG_HEAD },
          { type: 'media', mediaType: 'application/pdf', data: 'JVBE', filename: 'a.pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'the whole thought', signature: 'sig-1', origin: 'anthropic' },
          { type: 'text', text: 'calling' },
          { type: 'tool_call', id: 'call_1', name: 'f', input: { a: 1 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'two' }] }] },
      { role: 'system', content: [{ type: 'text', text: 'dev two' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
    expect(core.features).toBeUndefined();
    expect(core.hints).toEqual({ 'input item web_search_call': true });
  });

  it('marks what only a native upstream can serve as features', () => {
    const core = toCore({
      input: [
        { role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] },
        { type: 'computer_call_output', call_id: 'c', output: { type: 'computer_screenshot', image_url: 'https://x/y.png' } },
        { type: 'local_shell_call', call_id: 'c2', status: 'completed', action: { type: 'exec', command: ['ls'] } },
        { type: 'compaction', encrypted_content: 'gAAA' },
      ],
      background: true,
      conversation: 'conv_1',
      top_logprobs: 3,
      include: ['message.output_text.logprobs'],
      tools: [{ type: 'web_search_preview' }],
    });
    expect(Object.keys(core.features?.responses ?? {}).sort()).toEqual([
      'background',
      'conversation',
      'include message.output_text.logprobs',
      'input item compaction',
      'input item computer_call_output',
      'input item local_shell_call',
      'input_image file_id',
      'top_logprobs',
    ]);
    expect(core.tools).toEqual([{ type: 'builtin', dialect: 'responses', kind: 'web_search_preview', capability: 'web_search', raw: { type: 'web_search_preview' } }]);
  });

  it('rebuilds earlier turns from the store, without their instructions', () => {
    const turn: StoredResponse = {
      id: 'resp_1',
      keyId: 'k',
      previousResponseId: null,
      chain: [],
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }], id: 'msg_in' }],
      response: { instructions: 'old rules', output: [{ id: 'msg_out', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'reply' }] }] },
      channelId: null,
      native: false,
      upstreamResponseId: null,
      createdAt: 1,
    };
    const history: History = { previous: turn, turns: [turn], complete: true, references: new Map() };
    const core = toCore({ input: 'second', previous_response_id: 'resp_1', instructions: 'new rules' }, history);
    expect(core.system).toBe('new rules');
    expect(core.messages.map((message) => message.content[0])).toEqual([
      { type: 'text', text: 'first' },
      { type: 'text', text: 'reply' },
      { type: 'text', text: 'second' },
    ]);
  });

  it('refuses an item reference it cannot resolve, and bad function arguments', () => {
    expect(() => toCore({ input: [{ type: 'item_reference', id: 'msg_nowhere' }] })).toThrow(/names no stored item/);
    expect(() => toCore({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{oops' }] })).toThrow(/not valid JSON/);
  });

  it('maps effort none to thinking off, and leaves thinking unset without reasoning', () => {
    expect(toCore({ input: 'x', reasoning: { effort: 'none' } }).thinking).toEqual({ enabled: false });
    expect(toCore({ input: 'x', reasoning: { effort: 'xhigh' } }).thinking).toEqual({ enabled: true, effort: 'high', includeThoughts: false });
    expect(toCore({ input: 'x' }).thinking).toBeUndefined();
  });
});

describe('truncation', () => {
  const long = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i} ${'word '.repeat(40)}` }));

  it('refuses an input over the context window when disabled', () => {
    const error = (() => {
      try {
        toCore({ input: long(6) }, emptyHistory, 100);
      } catch (caught) {
        return caught as GatewayError;
      }
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, param: 'input', detail: { dialect: 'responses', code: 'context_length_exceeded' } });
  });

  it('drops the oldest turns to fit when auto, keeping the last user turn and tool pairs whole', () => {
    const input = [
      ...long(4),
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'result' },
      { role: 'user', content: 'last question' },
    ];
    const core = toCore({ input, truncation: 'auto', max_output_tokens: 20 }, emptyHistory, 150);
    expect(core.messages.length).toBeLessThan(5);
    expect(core.messages[0].role).toBe('user');
    expect(JSON.stringify(core.messages.at(-1))).toContain('last question');
    const first = core.messages[0].content;
    for (const part of first) if (part.type === 'tool_result') expect(JSON.stringify(core.messages)).toContain('"tool_call"');
  });

  it('leaves inputs that fit, and models without a known window, untouched', () => {
    expect(toCore({ input: long(6) }, emptyHistory, 100_000).messages).toHaveLength(6);
    expect(toCore({ input: long(6) }).messages).toHaveLength(6);
  });

  it('looks windows up by exact name, then the longest prefix, config first', () => {
    expect(contextWindowFor('gpt-4o-mini', undefined)).toBe(128_000);
    expect(contextWindowFor('gpt-4.1-nano', undefined)).toBe(1_047_576);
    expect(contextWindowFor('claude-opus-5', { 'claude-*': 1_000_000 })).toBe(1_000_000);
    expect(contextWindowFor('my-model', { 'my-*': 10, 'my-model': 20 })).toBe(20);
    expect(contextWindowFor('sim-model', undefined)).toBeUndefined();
  });
});
