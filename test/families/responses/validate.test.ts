/** Validation of Responses requests: every field and rule of the spec, one error with its parameter path. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';

const base = { model: 'm', input: 'hi' };

function failure(body: unknown): GatewayError {
  try {
    parseResponsesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

const rejected: Array<[string, Record<string, unknown>, string]> = [
  ['model missing', { input: 'x' }, 'model'],
  ['model empty', { model: '', input: 'x' }, 'model'],
  ['input missing', { model: 'm' }, 'input'],
  ['input of the wrong type', { model: 'm', input: 3 }, 'input'],
  ['instructions not a string', { ...base, instructions: 5 }, 'instructions'],
  ['max_output_tokens not an integer', { ...base, max_output_tokens: 1.5 }, 'max_output_tokens'],
  ['max_output_tokens below 1', { ...base, max_output_tokens: 0 }, 'max_output_tokens'],
  ['metadata with 17 pairs', { ...base, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
  ['a metadata key over 64 characters', { ...base, metadata: { ['k'.repeat(65)]: 'v' } }, `metadata.${'k'.repeat(65)}`],
  ['a metadata value over 512 characters', { ...base, metadata: { k: 'v'.repeat(513) } }, 'metadata.k'],
  ['a metadata value not a string', { ...base, metadata: { k: 1 } }, 'metadata.k'],
  ['parallel_tool_calls not a boolean', { ...base, parallel_tool_calls: 'yes' }, 'parallel_tool_calls'],
  ['previous_response_id empty', { ...base, previous_response_id: '' }, 'previous_response_id'],
  ['store not a boolean', { ...base, store: 1 }, 'store'],
  ['stream not a boolean', { ...base, stream: 'true' }, 'stream'],
  ['temperature above 2', { ...base, temperature: 2.1 }, 'temperature'],
  ['temperature below 0', { ...base, temperature: -0.1 }, 'temperature'],
  ['top_p above 1', { ...base, top_p: 1.5 }, 'top_p'],
  ['an unknown truncation', { ...base, truncation: 'middle' }, 'truncation'],
  ['user not a string', { ...base, user: 7 }, 'user'],
  ['an unknown text format', { ...base, text: { format: { type: 'xml' } } }, 'text.format.type'],
  ['a json_schema name with a space', { ...base, text: { format: { type: 'json_schema', name: 'my schema', schema: {} } } }, 'text.format.name'],
  ['a json_schema name over 64 characters', { ...base, text: { format: { type: 'json_schema', name: 'n'.repeat(65), schema: {} } } }, 'text.format.name'],
  ['a json_schema without schema', { ...base, text: { format: { type: 'json_schema', name: 'n' } } }, 'text.format.schema'],
  ['json_schema strict not a boolean', { ...base, text: { format: { type: 'json_schema', name: 'n', schema: {}, strict: 'yes' } } }, 'text.format.strict'],
  ['an unknown tool_choice word', { ...base, tool_choice: 'always' }, 'tool_choice'],
  ['tool_choice naming a missing function', { ...base, tools: [{ type: 'function', name: 'a', parameters: {} }], tool_choice: { type: 'function', name: 'b' } }, 'tool_choice.name'],
  ['tool_choice for a hosted tool not offered', { ...base, tool_choice: { type: 'file_search' } }, 'tool_choice.type'],
  ['tool_choice required without tools', { ...base, tool_choice: 'required' }, 'tool_choice'],
  ['a function tool with a bad name', { ...base, tools: [{ type: 'function', name: 'no spaces allowed', parameters: {} }] }, 'tools[0].name'],
  ['a function tool with parameters not an object', { ...base, tools: [{ type: 'function', name: 'f', parameters: 'x' }] }, 'tools[0].parameters'],
  [
    'function tool names repeated',
    {
      ...base,
      tools: [
        { type: 'function', name: 'f' },
        { type: 'function', name: 'f' },
      ],
    },
    'tools[1].name',
  ],
  ['file_search without vector stores', { ...base, tools: [{ type: 'file_search' }] }, 'tools[0].vector_store_ids'],
  ['file_search max_num_results above 50', { ...base, tools: [{ type: 'file_search', vector_store_ids: [], max_num_results: 51 }] }, 'tools[0].max_num_results'],
  ['file_search score_threshold above 1', { ...base, tools: [{ type: 'file_search', vector_store_ids: [], ranking_options: { score_threshold: 2 } }] }, 'tools[0].ranking_options.score_threshold'],
  ['file_search with a bad filter', { ...base, tools: [{ type: 'file_search', vector_store_ids: [], filters: { key: 'a', type: 'like', value: 1 } }] }, 'tools[0].filters'],
  ['web search with an unknown context size', { ...base, tools: [{ type: 'web_search_preview', search_context_size: 'huge' }] }, 'tools[0].search_context_size'],
  ['web search with a three-letter country', { ...base, tools: [{ type: 'web_search_preview_2025_03_11', user_location: { type: 'approximate', country: 'USA' } }] }, 'tools[0].user_location.country'],
  ['computer use without display size', { ...base, tools: [{ type: 'computer_use_preview', environment: 'browser' }] }, 'tools[0].display_height'],
  ['an input item without type or role', { ...base, input: [{ content: 'x' }] }, 'input[0].type'],
  ['a message with an unknown role', { ...base, input: [{ role: 'robot', content: 'x' }] }, 'input[0].role'],
  ['a user message holding output_text', { ...base, input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] }, 'input[0].content[0].type'],
  ['an assistant message holding an image', { ...base, input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }, 'input[0].content[0].type'],
  ['an input_image with neither URL nor file', { ...base, input: [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }] }, 'input[0].content[0]'],
  ['an input_image with a bad detail', { ...base, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'max' }] }] }, 'input[0].content[0].detail'],
  ['an input_image URL that is neither http nor data', { ...base, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x/y.png' }] }] }, 'input[0].content[0].image_url'],
  ['an input_file with nothing in it', { ...base, input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf' }] }] }, 'input[0].content[0]'],
  ['a function_call without call_id', { ...base, input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
  ['a function_call with object arguments', { ...base, input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }] }, 'input[0].arguments'],
  ['a function_call_output without output', { ...base, input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input[0].output'],
  ['a function_call_output with a bad status', { ...base, input: [{ type: 'function_call_output', call_id: 'c', output: 'x', status: 'done' }] }, 'input[0].status'],
  ['a computer_call_output without screenshot', { ...base, input: [{ type: 'computer_call_output', call_id: 'c', output: { type: 'computer_screenshot' } }] }, 'input[0].output'],
  ['a reasoning item without summary', { ...base, input: [{ type: 'reasoning', id: 'rs_1' }] }, 'input[0].summary'],
  ['an item_reference without id', { ...base, input: [{ type: 'item_reference' }] }, 'input[0].id'],
  ['include not strings', { ...base, include: [1] }, 'include[0]'],
  ['a reasoning effort not a string', { ...base, reasoning: { effort: 3 } }, 'reasoning.effort'],
  ['a namespace without tools', { ...base, tools: [{ type: 'namespace', name: 'ns' }] }, 'tools[0].tools'],
  ['a namespace holding a hosted tool', { ...base, tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'web_search' }] }] }, 'tools[0].tools[0].type'],
  ['a namespace member with a bad name', { ...base, tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'function', name: 'a b' }] }] }, 'tools[0].tools[0].name'],
  [
    'namespace member names repeated',
    {
      ...base,
      tools: [
        {
          type: 'namespace',
          name: 'ns',
          tools: [
            { type: 'function', name: 'f' },
            { type: 'custom', name: 'f' },
          ],
        },
      ],
    },
    'tools[0].tools[1].name',
  ],
  ['a custom tool without name', { ...base, tools: [{ type: 'custom' }] }, 'tools[0].name'],
  ['an additional_tools item without tools', { ...base, input: [{ type: 'additional_tools' }] }, 'input[0].tools'],
  ['an additional_tools item with a bad function', { ...base, input: [{ type: 'additional_tools', tools: [{ type: 'function', name: 'f', parameters: 'x' }] }] }, 'input[0].tools[0].parameters'],
  ['a custom_tool_call without input', { ...base, input: [{ type: 'custom_tool_call', call_id: 'c', name: 'exec' }] }, 'input[0].input'],
  ['a custom_tool_call_output without call_id', { ...base, input: [{ type: 'custom_tool_call_output', output: 'x' }] }, 'input[0].call_id'],
  ['tool_choice naming a missing custom tool', { ...base, tools: [{ type: 'custom', name: 'a' }], tool_choice: { type: 'custom', name: 'b' } }, 'tool_choice.name'],
];

describe('parseResponsesRequest rejects', () => {
  for (const [name, body, param] of rejected) {
    it(name, () => {
      const error = failure(body);
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
      expect(error.message).toContain(`'${param}'`);
    });
  }

  it('a body that is not an object', () => {
    expect(failure([1, 2]).message).toBe('request body must be a JSON object');
  });
});

describe('parseResponsesRequest accepts', () => {
  it('everything the spec lists, at once', () => {
    const request = parseResponsesRequest({
      model: 'm',
      input: [
        { role: 'developer', content: 'be brief' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'look' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' },
            { type: 'input_image', file_id: 'file-1', detail: 'low' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
            { type: 'input_file', file_id: 'file-2' },
          ],
        },
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'ok', annotations: [] },
            { type: 'refusal', refusal: 'no' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'hmm' }], encrypted_content: 'gAAA' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
        { type: 'computer_call', id: 'cu_1', call_id: 'call_2', action: { type: 'click', x: 1, y: 2, button: 'left' }, pending_safety_checks: [], status: 'completed' },
        { type: 'computer_call_output', call_id: 'call_2', output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AAAA' }, acknowledged_safety_checks: [] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'file_search_call', id: 'fs_1', status: 'completed', queries: ['q'], results: null },
        { type: 'item_reference', id: 'msg_0' },
        { id: 'msg_00' },
      ],
      include: ['file_search_call.results', 'message.input_image.image_url', 'computer_call_output.output.image_url', 'reasoning.encrypted_content'],
      instructions: 'top',
      max_output_tokens: 100,
      metadata: { a: 'b' },
      parallel_tool_calls: false,
      previous_response_id: 'resp_1',
      reasoning: { effort: 'high', summary: 'concise', generate_summary: 'concise' },
      service_tier: 'flex',
      store: false,
      stream: true,
      temperature: 0,
      text: { format: { type: 'json_schema', name: 'out_1-x', schema: { type: 'object' }, description: 'd', strict: true } },
      tool_choice: { type: 'web_search_preview' },
      tools: [
        { type: 'function', name: 'f', parameters: { type: 'object' }, strict: false, description: 'fn' },
        {
          type: 'file_search',
          vector_store_ids: ['vs'],
          max_num_results: 50,
          ranking_options: { ranker: 'auto', score_threshold: 0.5 },
          filters: {
            type: 'and',
            filters: [
              { key: 'k', type: 'eq', value: 'v' },
              { type: 'or', filters: [{ key: 'n', type: 'gte', value: 2 }] },
            ],
          },
        },
        {
          type: 'web_search_preview_2025_03_11',
          search_context_size: 'high',
          user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: 'IDF', timezone: 'Europe/Paris' },
          domains: ['example.com'],
        },
        { type: 'computer_use_preview', display_height: 768, display_width: 1024, environment: 'browser' },
      ],
      top_p: 1,
      truncation: 'auto',
      user: 'u-1',
    });
    expect(Array.isArray(request.input) && request.input).toHaveLength(12);
  });

  it('tool_choice words and newer hosted tools, kept for a native upstream', () => {
    for (const tool_choice of ['none', 'auto', 'required'] as const) {
      expect(() => parseResponsesRequest({ ...base, tool_choice, tools: [{ type: 'function', name: 'f' }] })).not.toThrow();
    }
    const request = parseResponsesRequest({ ...base, tools: [{ type: 'code_interpreter', container: { type: 'auto' } }], tool_choice: { type: 'code_interpreter' } });
    expect(request.tools?.[0]).toEqual({ type: 'code_interpreter', container: { type: 'auto' } });
  });

  it('the words the live API keeps adding to, as any string', () => {
    const request = parseResponsesRequest({
      ...base,
      include: ['everything', 'reasoning.encrypted_content'],
      reasoning: { effort: 'max', summary: 'long', generate_summary: 'long', context: 'all_turns' },
      service_tier: 'gold',
      input: [{ type: 'computer_call', id: 'cu', call_id: 'c', action: { type: 'dance' }, pending_safety_checks: [], status: 'completed' }],
    });
    expect(request.include).toEqual(['everything', 'reasoning.encrypted_content']);
    expect(request.reasoning).toEqual({ effort: 'max', summary: 'long', generate_summary: 'long', context: 'all_turns' });
  });

  it('namespace, custom and web_search tools, additional_tools and custom tool items, future item types', () => {
    const namespace = {
      type: 'namespace',
      name: 'multi_agent_v1',
      description: 'agents',
      tools: [
        { type: 'function', name: 'spawn_agent', strict: false, parameters: { type: 'object' } },
        { type: 'custom', name: 'note', format: { type: 'text' } },
      ],
    };
    const request = parseResponsesRequest({
      ...base,
      input: [
        {
          type: 'additional_tools',
          id: 'at_1',
          role: 'developer',
          tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } }] }],
        },
        { type: 'function_call', call_id: 'c1', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'ok' }] },
        { type: 'custom_tool_call', call_id: 'c2', name: 'exec', input: 'text(1)' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: [{ type: 'input_text', text: '1' }] },
        { type: 'compaction', encrypted_content: 'gAAA' },
        { type: 'tool_search_call', call_id: 'c3', execution: 'client', arguments: {} },
      ],
      tools: [
        { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
        namespace,
        { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
        { type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'], filters: { allowed_domains: ['example.com'] } },
        { type: 'tool_search', execution: 'client', parameters: { type: 'object' } },
        { type: 'local_shell' },
        { type: 'image_generation' },
      ],
      tool_choice: { type: 'function', namespace: 'multi_agent_v1', name: 'spawn_agent' },
      client_metadata: { 'x-codex-turn-metadata': '{}' },
      prompt_cache_key: 'k',
      text: { verbosity: 'low' },
      context_management: [{ type: 'compaction', compact_threshold: 1000 }],
    });
    expect(request.tools?.[1]).toEqual(namespace);
    expect(Array.isArray(request.input) && request.input.map((item) => item.type)).toEqual([
      'additional_tools',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
      'compaction',
      'tool_search_call',
    ]);
    for (const tool_choice of [{ type: 'custom', name: 'apply_patch' }, { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'exec_command' }] }, { type: 'web_search' }]) {
      expect(() => parseResponsesRequest({ ...base, tools: request.tools, tool_choice })).not.toThrow();
    }
  });

  it('unknown top-level fields, kept as they came', () => {
    const request = parseResponsesRequest({ ...base, prompt_cache_key: 'k', background: false });
    expect(request.prompt_cache_key).toBe('k');
  });
});
