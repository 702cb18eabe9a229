/** The shapes newer Messages clients (Claude Code) send, and what translation makes of them. */
import { describe, expect, it } from 'vitest';
import { messagesToCore } from '../../../src/families/messages/to-core.js';
import { parseMessagesRequest } from '../../../src/families/messages/validate.js';

const toCore = (body: Record<string, unknown>) => messagesToCore(parseMessagesRequest({ model: 'claude-test', max_tokens: 4096, ...body }));
const hi = [{ role: 'user', content: 'hi' }];

describe('system-role messages', () => {
  it('become system turns at their place; leading ones join the system prompt', () => {
    const req = toCore({
      system: 'prompt',
      messages: [
        { role: 'system', content: 'leading one' },
        { role: 'system', content: [{ type: 'text', text: 'leading two' }] },
        { role: 'user', content: 'question' },
        { role: 'system', content: 'env' },
        { role: 'system', content: [{ type: 'text', text: 'more env', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: 'answer' },
      ],
    });
    expect(req.system).toBe('prompt\n\nleading one\n\nleading two');
    expect(req.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'question' }] },
      {
        role: 'system',
        content: [
          { type: 'text', text: 'env' },
          { type: 'text', text: 'more env', cache: { ttl: '5m' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    ]);
    expect(req.hints).toBeUndefined();
  });

  it('leaves the attribution line out of the system prompt, as a hint', () => {
    const line = 'x-anthropic-billing-header: cc_version=2.1.328.afe; cc_entrypoint=sdk-cli;';
    const req = toCore({
      system: [
        { type: 'text', text: line },
        { type: 'text', text: 'You are an agent.' },
      ],
      messages: hi,
    });
    expect(req.system).toBe('You are an agent.');
    expect(req.hints).toEqual({ 'x-anthropic-billing-header': line });
    // Only as the first block: elsewhere it is the client's own text.
    const later = toCore({
      system: [
        { type: 'text', text: 'A.' },
        { type: 'text', text: line },
      ],
      messages: hi,
    });
    expect(later.system).toBe(`A.\n\n${line}`);
  });
});

describe('thinking and output_config', () => {
  const thinking = (body: Record<string, unknown>) => toCore({ messages: hi, ...body });

  it('maps adaptive thinking with effort and display', () => {
    expect(thinking({ thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'high' } }).thinking).toEqual({
      enabled: true,
      adaptive: true,
      includeThoughts: false,
      effort: 'high',
    });
    expect(thinking({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }).thinking?.effort).toBe('high');
    expect(thinking({ thinking: { type: 'adaptive' }, output_config: { effort: 'xhigh' } }).thinking?.effort).toBe('high');
    expect(thinking({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }).thinking?.effort).toBe('low');
    const newer = thinking({ thinking: { type: 'between_tools' } });
    expect(newer.thinking).toEqual({ enabled: true, adaptive: true, includeThoughts: true });
    expect(newer.hints).toEqual({ 'thinking.type': 'between_tools' });
    expect(thinking({ thinking: { type: 'enabled', budget_tokens: 2000, display: 'omitted' } }).thinking).toEqual({
      enabled: true,
      budgetTokens: 2000,
      includeThoughts: false,
    });
  });

  it('keeps an effort it cannot carry as a hint', () => {
    const noThinking = thinking({ output_config: { effort: 'medium' } });
    expect(noThinking.thinking).toBeUndefined();
    expect(noThinking.hints).toEqual({ 'output_config.effort': 'medium' });
    const unknownWord = thinking({ thinking: { type: 'adaptive' }, output_config: { effort: 'ludicrous' } });
    expect(unknownWord.thinking).toEqual({ enabled: true, adaptive: true, includeThoughts: true });
    expect(unknownWord.hints).toEqual({ 'output_config.effort': 'ludicrous' });
  });

  it('maps output_config.format to a JSON-schema response format; other keys are hints', () => {
    const req = thinking({ output_config: { format: { type: 'json_schema', schema: { type: 'object' } }, task_budget: { total: 5 } } });
    expect(req.responseFormat).toEqual({ type: 'json_schema', schema: { type: 'object' } });
    expect(req.hints).toEqual({ 'output_config.task_budget': { total: 5 } });
  });
});

describe('fields that cannot change the answer, and features', () => {
  it('names context_management, extra metadata and unknown keys as hints; carries cache marks', () => {
    const req = toCore({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
      context_management: { edits: [] },
      metadata: { user_id: '{"device_id":"d"}', team: 'a' },
      service_tier: 'auto',
      container: 'container_1',
      inference_geo: 'eu',
    });
    expect(req.user).toBe('{"device_id":"d"}');
    expect(req.messages[0].content[0]).toEqual({ type: 'text', text: 'x', cache: { ttl: '1h' } });
    expect(req.hints).toEqual({
      context_management: { edits: [] },
      metadata: { team: 'a' },
      service_tier: 'auto',
      container: 'container_1',
      inference_geo: 'eu',
    });
    expect(req.features).toBeUndefined();
  });

  it('makes mcp_servers a feature', () => {
    const servers = [{ type: 'url', url: 'https://mcp.example.com', name: 'ex' }];
    expect(toCore({ messages: hi, mcp_servers: servers }).features).toEqual({ messages: { mcp_servers: servers } });
  });
});

describe('tools', () => {
  it('keeps deferred tools as function tools marked deferLoading', () => {
    const req = toCore({ messages: hi, tools: [{ name: 'Later', input_schema: { type: 'object' }, defer_loading: true }] });
    expect(req.tools).toEqual([{ type: 'function', name: 'Later', parameters: { type: 'object' }, deferLoading: true }]);
  });

  it('gives typed tools their shared capability where one exists', () => {
    const req = toCore({
      messages: hi,
      tools: [
        { type: 'web_search_20250305', name: 'web_search' },
        { type: 'web_fetch_20250910', name: 'web_fetch' },
        { type: 'code_execution_20250825', name: 'code_execution' },
        { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
        { type: 'mcp_toolset', mcp_server_name: 'ex' },
      ],
    });
    expect(req.tools?.map((tool) => (tool.type === 'builtin' ? [tool.kind, tool.capability] : []))).toEqual([
      ['web_search_20250305', 'web_search'],
      ['web_fetch_20250910', 'web_fetch'],
      ['code_execution_20250825', 'code_execution'],
      ['tool_search_tool_bm25_20251119', undefined],
      ['mcp_toolset', undefined],
    ]);
  });
});

describe('blocks the gateway does not convert', () => {
  it('drops server-tool records in assistant turns with a hint, and turns search results into text', () => {
    const req = toCore({
      messages: [
        { role: 'user', content: [{ type: 'search_result', source: 'https://a.example', title: 'A', content: [{ type: 'text', text: 'alpha' }] }] },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'Found it.' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_reference', tool_name: 'Grep' }] }] },
      ],
    });
    expect(req.messages[0].content).toEqual([{ type: 'text', text: 'A\nhttps://a.example\nalpha' }]);
    expect(req.messages[1].content).toEqual([{ type: 'text', text: 'Found it.' }]);
    expect(req.messages[2].content).toEqual([{ type: 'tool_result', callId: 't', content: [{ type: 'text', text: 'Tool available: Grep' }] }]);
    expect(req.hints).toEqual({ 'content block server_tool_use': true, 'content block web_search_tool_result': true });
    expect(req.features).toBeUndefined();
  });

  it('refuses on translation an unknown block in a user turn (a feature no upstream honours)', () => {
    const req = toCore({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'container_upload', file_id: 'file_1' },
            { type: 'text', text: 'run it' },
          ],
        },
      ],
    });
    expect(req.features).toEqual({ messages: { 'content block container_upload': true } });
    expect(req.messages[0].content).toEqual([{ type: 'text', text: 'run it' }]);
  });
});
