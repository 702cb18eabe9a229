/** Probe rows of the Responses table (docs/translation/responses.md): one client field each, in the family's dialect. */
import type { Probe } from './tables.js';

const message = (role: string, content: string) => ({ type: 'message', role, content });
const weather = { type: 'function', name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const hosted = (type: string, extra: Record<string, unknown> = {}): Probe => ({ label: `\`tools\` \`${type}\``, body: { tools: [{ type, ...extra }] }, field: `tool ${type}` });
const feature = (label: string, body: Record<string, unknown>, field: string): Probe => ({ label, body, field });
const item = (label: string, type: string, fields: Record<string, unknown>): Probe => ({
  label,
  body: { input: [message('user', 'Go on.'), { type, ...fields }] },
  field: `input item ${type}`,
});

export const responsesProbes: readonly Probe[] = [
  { label: '`instructions`', body: { instructions: 'Be brief.' } },
  { label: 'leading `system`/`developer` messages', body: { input: [message('developer', 'Be brief.'), message('user', 'Hello')] } },
  {
    label: '`developer`/`system` message after the first turn',
    body: { input: [message('user', 'Hello'), message('assistant', 'Hi.'), message('developer', 'Be brief.'), message('user', 'And now?')] },
    field: 'system messages',
  },
  { label: '`tools` `function`', body: { tools: [weather] } },
  { label: '`tools` `namespace` (members)', body: { tools: [{ type: 'namespace', name: 'weather', description: 'Weather tools', tools: [weather] }] } },
  { label: '`tools` `custom` (freeform, grammar)', body: { tools: [{ type: 'custom', name: 'apply_patch', description: 'Apply a patch' }] } },
  { label: '`additional_tools` input item', body: { input: [message('user', 'Hello'), { type: 'additional_tools', tools: [weather] }] } },
  hosted('web_search'),
  hosted('web_search_preview'),
  hosted('file_search', { vector_store_ids: ['vs_1'] }),
  hosted('code_interpreter', { container: { type: 'auto' } }),
  hosted('image_generation'),
  hosted('mcp', { server_label: 'docs', server_url: 'https://mcp.example.com/sse' }),
  hosted('local_shell'),
  { label: 'a hosted tool forced by `tool_choice`', body: { tools: [{ type: 'image_generation' }], tool_choice: { type: 'image_generation' } }, field: 'tool image_generation' },
  { label: '`tool_choice` `auto`/`none`/`required`, `function`, `custom`', body: { tools: [weather], tool_choice: { type: 'function', name: 'get_weather' } } },
  { label: '`tool_choice` `allowed_tools`', body: { tools: [weather], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] } } },
  { label: '`parallel_tool_calls`', body: { tools: [weather], parallel_tool_calls: false } },
  { label: '`reasoning.effort` / `summary`', body: { reasoning: { effort: 'high', summary: 'auto' } } },
  { label: '`reasoning.context` and other unknown `reasoning.*`', body: { reasoning: { context: 'all' } }, field: 'reasoning.context' },
  { label: '`text.format`', body: { text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { answer: { type: 'string' } } } } } } },
  { label: '`text.verbosity`', body: { text: { verbosity: 'low' } } },
  { label: '`include: reasoning.encrypted_content`', body: { include: ['reasoning.encrypted_content'] } },
  { label: '`include: message.output_text.logprobs`', body: { include: ['message.output_text.logprobs'] }, field: 'include message.output_text.logprobs' },
  { label: '`include` other values', body: { include: ['file_search_call.results'] }, field: 'include file_search_call.results' },
  { label: '`store`, `metadata`, `truncation`', body: { store: true, metadata: { session: 's-1' }, truncation: 'auto' } },
  { label: '`safety_identifier`', body: { safety_identifier: 'user-1' } },
  { label: '`user`', body: { user: 'user-1' } },
  { label: '`service_tier`', body: { service_tier: 'flex' } },
  { label: '`context_management`, unknown top-level fields', body: { context_management: [{ type: 'compaction', compact_threshold: 100000 }] }, field: 'context_management' },
  { label: '`prompt_cache_key` ([prompt-caching.md](prompt-caching.md))', body: { prompt_cache_key: 'session-1' } },
  { label: '`prompt_cache_retention`', body: { prompt_cache_retention: '24h' } },
  feature('`background` (true)', { background: true }, 'background'),
  feature('`conversation`', { conversation: 'conv_1' }, 'conversation'),
  feature('`prompt`', { prompt: { id: 'pmpt_1' } }, 'prompt'),
  feature('`top_logprobs` (> 0)', { top_logprobs: 3 }, 'top_logprobs'),
  feature('`max_tool_calls`', { max_tool_calls: 4 }, 'max_tool_calls'),
  {
    label: '`function_call` / `function_call_output` items',
    body: {
      tools: [weather],
      input: [
        message('user', 'Weather in Paris?'),
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '21 degrees' },
      ],
    },
  },
  {
    label: '`custom_tool_call` / `custom_tool_call_output` items',
    body: {
      tools: [{ type: 'custom', name: 'apply_patch' }],
      input: [
        message('user', 'Patch it.'),
        { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'done' },
      ],
    },
  },
  {
    label: "`reasoning` items (without the gateway's state)",
    body: { input: [message('user', 'Hello'), { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thinking.' }] }, message('assistant', 'Hi.'), message('user', 'Go on.')] },
  },
  item('records of hosted tool runs (`web_search_call`, `file_search_call`, `code_interpreter_call`, `image_generation_call`, `mcp_call`, `mcp_list_tools`)', 'web_search_call', {
    id: 'ws_1',
    status: 'completed',
    action: { type: 'search', query: 'switchyard' },
  }),
  item('`configuration_update` item (Codex: settings changed, e.g. `reasoning`)', 'configuration_update', { id: 'cu_1', changes: { reasoning: { effort: 'low' } } }),
  { label: '`compaction_trigger` item (last in the input)', body: { input: [message('user', 'Hello'), message('assistant', 'Hi.'), { type: 'compaction_trigger' }] } },
  item("`compaction` item the gateway did not seal (OpenAI's own)", 'compaction', { id: 'cmp_1', encrypted_content: 'not-the-gateways' }),
  item('other items (`computer_call(_output)`, `local_shell_call(_output)`, `tool_search_call/output`, future types)', 'computer_call', {
    id: 'cc_1',
    call_id: 'call_1',
    action: { type: 'screenshot' },
    pending_safety_checks: [],
    status: 'completed',
  }),
  {
    label: '`input_image` by `file_id`',
    body: { input: [{ type: 'message', role: 'user', content: [{ type: 'input_image', file_id: 'file_1', detail: 'auto' }] }] },
    field: 'input_image file_id',
  },
];
