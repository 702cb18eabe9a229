import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { parseMessagesRequest } from '../../../src/families/messages/validate.js';
import { IMAGE_HEADS } from '../../support/media-samples.js';

const base = { model: 'claude-test', max_tokens: 2048, messages: [{ role: 'user', content: 'hi' }] };
const user = (...content: unknown[]) => ({ ...base, messages: [{ role: 'user', content }] });
const assistant = (...content: unknown[]) => ({
  ...base,
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content },
  ],
});
const png = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' };
const weatherTool = { name: 'get_weather', description: 'weather', input_schema: { type: 'object' } };

function rejection(body: unknown): GatewayError {
  try {
    parseMessagesRequest(body);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected the request to be rejected');
}

describe('parseMessagesRequest accepts', () => {
  const accepted: Array<[string, unknown]> = [
    ['the minimal request', base],
    ['model of 256 characters', { ...base, model: 'm'.repeat(256) }],
    ['max_tokens 2', { ...base, max_tokens: 2 }],
    ['system as a string', { ...base, system: 'be brief' }],
    ['system as text blocks with cache_control', { ...base, system: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] }],
    ['metadata.user_id of 256 characters', { ...base, metadata: { user_id: 'u'.repeat(256) } }],
    ['stop_sequences, stream', { ...base, stop_sequences: ['END'], stream: true }],
    ['temperature and top_p inside (0, 1)', { ...base, temperature: 0.5, top_p: 0.999 }],
    ['top_k 1', { ...base, top_k: 1 }],
    ['thinking enabled with budget 1024 < max_tokens', { ...base, thinking: { type: 'enabled', budget_tokens: 1024 } }],
    ['thinking disabled', { ...base, thinking: { type: 'disabled' } }],
    ['thinking adaptive', { ...base, thinking: { type: 'adaptive' } }],
    ['tool_choice auto/any/tool/none', { ...base, tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } }],
    ['tool_choice none', { ...base, tools: [weatherTool], tool_choice: { type: 'none' } }],
    ['a custom tool with extra keys', { ...base, tools: [{ ...weatherTool, type: 'custom', eager_input_streaming: true, cache_control: { type: 'ephemeral' }, strict: true }] }],
    ['a tool name of 64 characters', { ...base, tools: [{ name: 'a'.repeat(64), input_schema: {} }] }],
    [
      'computer, bash and text editor tools',
      {
        ...base,
        tools: [
          { type: 'computer_20241022', name: 'computer', display_width_px: 1024, display_height_px: 768, display_number: 1 },
          { type: 'bash_20241022', name: 'bash' },
          { type: 'text_editor_20241022', name: 'str_replace_editor' },
          { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
        ],
      },
    ],
    ['text block with cache_control', user({ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } })],
    [
      'base64 images of every media type',
      user(
        ...['image/jpeg', 'image/png', 'image/gif', 'image/webp'].map((media_type) => ({ type: 'image', source: { ...png, media_type, data: IMAGE_HEADS[media_type as keyof typeof IMAGE_HEADS] } })),
      ),
    ],
    ['url image', user({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } })],
    [
      'documents of every source',
      user(
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain' }, citations: { enabled: true } },
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk' }] }, context: 'ctx' },
      ),
    ],
    [
      'tool_result with string, block and error content',
      {
        ...base,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [
                  { type: 'text', text: 'a' },
                  { type: 'image', source: png },
                ],
              },
              { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true },
            ],
          },
        ],
      },
    ],
    [
      'thinking and redacted_thinking in an assistant turn',
      assistant({ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'answer' }),
    ],
    [
      'an empty final assistant message',
      {
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '' },
        ],
      },
    ],
    ['unknown body keys (kept)', { ...base, service_tier: 'auto', container: null, inference_geo: 'us' }],
    [
      'system-role messages anywhere, as a string or text blocks',
      {
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'env' },
          { role: 'assistant', content: 'ok' },
          { role: 'system', content: [{ type: 'text', text: 'tokens left', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        ],
      },
    ],
    [
      'thinking with extra keys, output_config, context_management, mcp_servers',
      {
        ...base,
        thinking: { type: 'adaptive', display: 'omitted' },
        output_config: { effort: 'max', format: { type: 'json_schema', schema: { type: 'object' } }, task_budget: { total: 10 } },
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
        mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }],
        metadata: { user_id: '{"device_id":"d"}', other: 1 },
      },
    ],
    ['a newer thinking type', { ...base, thinking: { type: 'between_tools' } }],
    ['thinking enabled with display', { ...base, thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }],
    [
      'custom tools with defer_loading, input_examples, eager_input_streaming',
      { ...base, tools: [{ ...weatherTool, defer_loading: true, input_examples: [{ city: 'Paris' }], eager_input_streaming: true }] },
    ],
    [
      'typed tools of any type word, dated or not, named or not',
      {
        ...base,
        tools: [
          { type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 2 },
          { type: 'code_execution_20250825', name: 'code_execution' },
          { type: 'memory_20250818', name: 'memory' },
          { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
          { type: 'mcp_toolset', mcp_server_name: 'example', default_config: { defer_loading: true } },
          { type: 'function', name: 'f', input_schema: {} },
        ],
      },
    ],
    ['tool_choice forcing a typed tool', { ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'tool', name: 'web_search' } }],
    [
      'block types the gateway does not convert, in any turn',
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'search_result', source: 'https://a', title: 'A', content: [{ type: 'text', text: 'x' }] },
              { type: 'container_upload', file_id: 'f' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
              { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
              { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'x', server_name: 's', input: {} },
              { type: 'future_block_2031', anything: true },
              { type: 'text', text: 'answer' },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [
                  { type: 'tool_reference', tool_name: 'Grep' },
                  { type: 'search_result', source: 's', title: 't', content: [] },
                ],
              },
            ],
          },
        ],
      },
    ],
    ['null for optional fields', { ...base, system: null, temperature: null, tools: null }],
  ];
  it.each(accepted)('%s', (_name, body) => {
    expect(() => parseMessagesRequest(body)).not.toThrow();
  });

  it('keeps unknown body keys and unknown tool keys', () => {
    const req = parseMessagesRequest({ ...base, service_tier: 'auto', tools: [{ ...weatherTool, eager_input_streaming: true }] });
    expect(req).toHaveProperty('service_tier', 'auto');
    expect(req.tools?.[0]).toHaveProperty('eager_input_streaming', true);
  });
});

describe('parseMessagesRequest rejects', () => {
  const rejected: Array<[string, unknown, string, string?]> = [
    ['a non-object body', [base], 'request body must be a JSON object'],
    ['a missing model', { ...base, model: undefined }, 'model: field required', 'model'],
    ['an empty model', { ...base, model: '' }, 'model: must be 1 to 256 characters'],
    ['a model of 257 characters', { ...base, model: 'm'.repeat(257) }, 'model: must be 1 to 256 characters'],
    ['a missing max_tokens', { ...base, max_tokens: undefined }, 'max_tokens: field required'],
    ['max_tokens 1', { ...base, max_tokens: 1 }, 'max_tokens: must be greater than 1'],
    ['a fractional max_tokens', { ...base, max_tokens: 2.5 }, 'max_tokens: must be an integer'],
    ['no messages', { ...base, messages: [] }, 'messages: must hold at least one message'],
    ['messages not an array', { ...base, messages: 'hi' }, 'messages: must be an array'],
    [
      'a non-text block in a system message',
      {
        ...base,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'system', content: [{ type: 'image', source: png }] },
        ],
      },
      'messages.1.content.0: system messages may hold text blocks only',
      'messages.1.content.0',
    ],
    [
      'an empty system message',
      {
        ...base,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'system', content: '' },
          { role: 'user', content: 'y' },
        ],
      },
      'messages.1: all messages must have non-empty content',
    ],
    ['an unknown role', { ...base, messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.role: must be "user", "assistant" or "system"'],
    ['content of the wrong type', { ...base, messages: [{ role: 'user', content: 5 }] }, 'messages.0.content: must be a string or an array of content blocks'],
    ['an empty text block', user({ type: 'text', text: 'a' }, { type: 'text', text: '' }), 'messages.0.content.1.text: text blocks must be non-empty', 'messages.0.content.1.text'],
    ['a block type that is not a string', user({ type: 5, data: 'x' }), 'messages.0.content.0.type: content block type must be a string'],
    ['a block that is not an object', user('text'), 'messages.0.content.0: each content block must be an object'],
    ['a block without type', user({ text: 'x' }), 'messages.0.content.0.type: content block type is required'],
    [
      'a bad image media type',
      user({ type: 'image', source: { ...png, media_type: 'image/bmp' } }),
      'messages.0.content.0.source.media_type: must be one of image/jpeg, image/png, image/gif, image/webp',
    ],
    ['an unknown image source', user({ type: 'image', source: { type: 'file', file_id: 'f' } }), 'messages.0.content.0.source.type: unknown image source type "file"'],
    ['a non-http image url', user({ type: 'image', source: { type: 'url', url: 'ftp://x/a.png' } }), 'messages.0.content.0.source.url: must be an http or https URL'],
    [
      'a base64 document that is not a PDF',
      user({ type: 'document', source: { type: 'base64', media_type: 'text/html', data: 'x' } }),
      'messages.0.content.0.source.media_type: base64 documents must have media_type "application/pdf"',
    ],
    ['tool_use without input', assistant({ type: 'tool_use', id: 't', name: 'f' }), 'messages.1.content.0.input: field required'],
    ['tool_use with an empty name', assistant({ type: 'tool_use', id: 't', name: '', input: {} }), 'messages.1.content.0.name: tool_use name must be non-empty'],
    [
      'tool_result with a bad nested block',
      user({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: '' }] }),
      'messages.0.content.0.content.0.text: text blocks must be non-empty',
    ],
    [
      'tool_result with a nested block without type',
      user({ type: 'tool_result', tool_use_id: 't', content: [{ text: 'x' }] }),
      'messages.0.content.0.content.0.type: tool_result content block type is required',
    ],
    ['tool_result in an assistant message', assistant({ type: 'tool_result', tool_use_id: 't', content: 'x' }), 'messages.1.content.0: tool_result blocks are only allowed in user messages'],
    ['tool_use in a user message', user({ type: 'tool_use', id: 't', name: 'f', input: {} }), 'messages.0.content.0: tool_use blocks are only allowed in assistant messages'],
    [
      'an empty non-final message',
      {
        ...base,
        messages: [
          { role: 'user', content: [] },
          { role: 'assistant', content: 'x' },
        ],
      },
      'messages.0: all messages must have non-empty content except for the optional final assistant message',
    ],
    ['an empty final user message', { ...base, messages: [{ role: 'user', content: '' }] }, 'messages.0: all messages must have non-empty content'],
    ['system of the wrong type', { ...base, system: 5 }, 'system: must be a string or an array of text blocks'],
    ['an empty system text block', { ...base, system: [{ type: 'text', text: '' }] }, 'system.0.text: text blocks must be non-empty'],
    ['metadata.user_id over 256', { ...base, metadata: { user_id: 'u'.repeat(257) } }, 'metadata.user_id: must be at most 256 characters'],
    ['temperature 0', { ...base, temperature: 0 }, 'temperature: must be above 0 and below 1'],
    ['temperature 1', { ...base, temperature: 1 }, 'temperature: must be above 0 and below 1'],
    ['top_p 1', { ...base, top_p: 1 }, 'top_p: must be above 0 and below 1'],
    ['top_p 0', { ...base, top_p: 0 }, 'top_p: must be above 0 and below 1'],
    ['top_k 0', { ...base, top_k: 0 }, 'top_k: must be greater than 0'],
    ['a fractional top_k', { ...base, top_k: 1.5 }, 'top_k: must be an integer'],
    ['a thinking budget under 1024', { ...base, thinking: { type: 'enabled', budget_tokens: 1023 } }, 'thinking.budget_tokens: must be at least 1024'],
    ['a thinking budget equal to max_tokens', { ...base, thinking: { type: 'enabled', budget_tokens: 2048 } }, 'thinking.budget_tokens: must be less than max_tokens (2048)', 'thinking.budget_tokens'],
    ['thinking without a budget', { ...base, thinking: { type: 'enabled' } }, 'thinking.budget_tokens: field required'],
    ['a thinking type that is not a string', { ...base, thinking: { type: 3 } }, 'thinking.type: thinking type must be a string'],
    ['an unknown tool_choice type', { ...base, tool_choice: { type: 'required' } }, 'tool_choice.type: unknown tool_choice type "required"'],
    ['tool_choice tool without a name', { ...base, tools: [weatherTool], tool_choice: { type: 'tool' } }, 'tool_choice.name: field required'],
    ['tool_choice any without tools', { ...base, tool_choice: { type: 'any' } }, 'tool_choice: tool_choice "any" requires tools'],
    ['tool_choice naming an unknown tool', { ...base, tools: [weatherTool], tool_choice: { type: 'tool', name: 'other' } }, 'tool_choice.name: no tool named "other" in tools'],
    ['a tool name with a space', { ...base, tools: [{ name: 'get weather', input_schema: {} }] }, 'tools.0.name: must be 1-64 characters of letters, digits, "_" or "-"'],
    ['a tool name of 65 characters', { ...base, tools: [{ name: 'a'.repeat(65), input_schema: {} }] }, 'tools.0.name: must be 1-64 characters'],
    ['a custom tool without input_schema', { ...base, tools: [{ name: 'f' }] }, 'tools.0.input_schema: field required'],
    ['a custom tool with a non-object input_schema', { ...base, tools: [{ type: 'custom', name: 'f', input_schema: 'x' }] }, 'tools.0.input_schema: must be a JSON Schema object'],
    ['a tool type that is not a string', { ...base, tools: [{ type: 7, name: 'f' }] }, 'tools.0.type: must be a custom tool (with an input_schema) or a typed tool'],
    ['a typed tool with an empty name', { ...base, tools: [{ type: 'bash_20241022', name: '' }] }, 'tools.0.name: must be non-empty'],
    ['output_config.format that is not a JSON schema', { ...base, output_config: { format: { type: 'regex', pattern: 'x' } } }, 'output_config.format.type: must be "json_schema"'],
    ['context_management that is not an object', { ...base, context_management: 'auto' }, 'context_management: context_management must be an object'],
    ['mcp_servers that is not an array', { ...base, mcp_servers: {} }, 'mcp_servers: must be an array'],
    [
      'duplicate typed tool names',
      {
        ...base,
        tools: [
          { type: 'web_search_20250305', name: 'web_search' },
          { name: 'web_search', input_schema: {} },
        ],
      },
      'tools.1.name: tool names must be unique',
    ],
    [
      'a computer tool without display size',
      { ...base, tools: [{ type: 'computer_20241022', name: 'computer', display_height_px: 768 }] },
      'tools.0.display_width_px: computer_20241022 tools require display_width_px',
    ],
    ['a tool that is not an object', { ...base, tools: ['f'] }, 'tools.0: each tool must be an object'],
    ['duplicate tool names', { ...base, tools: [weatherTool, weatherTool] }, 'tools.1.name: tool names must be unique; "get_weather" is repeated'],
  ];
  it.each(rejected)('%s', (_name, body, message, param) => {
    const err = rejection(body);
    expect(err.kind).toBe('invalid_request');
    expect(err.status).toBe(400);
    expect(err.message.slice(0, message.length)).toBe(message);
    if (param) expect(err.param).toBe(param);
  });

  it('reports the first error only, in field order', () => {
    const err = rejection({ ...base, model: '', max_tokens: 1 });
    expect(err.message).toBe('model: must be 1 to 256 characters');
  });
});
