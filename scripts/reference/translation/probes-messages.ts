/** Probe rows of the Messages table (docs/translation/messages.md): one client field each, in the family's dialect. */
import type { Probe } from './tables.js';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const customTool = { name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };

export const messagesProbes: readonly Probe[] = [
  { label: '`role: "system"` messages (before any other message)', body: { messages: [{ role: 'system', content: 'Be brief.' }, user('Hello')] } },
  {
    label: '`role: "system"` messages (after another message)',
    body: { messages: [user('Hello'), assistant('Hi.'), { role: 'system', content: 'Be brief.' }, user('And now?')] },
    field: 'system messages',
  },
  {
    label: '`system` attribution line (`x-anthropic-billing-header: …`, first block)',
    body: {
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.0' },
        { type: 'text', text: 'You are a coding assistant.' },
      ],
    },
    field: 'x-anthropic-billing-header',
  },
  { label: '`thinking: {type: "enabled", budget_tokens}`', body: { thinking: { type: 'enabled', budget_tokens: 2048 } }, field: 'thinking.budget_tokens' },
  { label: '`thinking: {type: "adaptive"}` + `output_config.effort`', body: { thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } }, field: 'thinking.adaptive' },
  { label: '`thinking: {type: "adaptive"}` without an effort', body: { thinking: { type: 'adaptive' } }, field: 'thinking.adaptive' },
  { label: '`thinking.type` newer than adaptive (`between_tools`…)', body: { thinking: { type: 'between_tools' } }, field: ['thinking.type', 'thinking.adaptive'] },
  { label: '`thinking.display: "omitted"`', body: { thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' } }, field: ['thinking.display', 'thinking.budget_tokens'] },
  { label: '`output_config.effort` without thinking', body: { output_config: { effort: 'high' } } },
  { label: '`output_config.effort: "max"` (or `"xhigh"`) with adaptive thinking', body: { thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, field: 'thinking.adaptive' },
  { label: '`output_config.format` (json_schema)', body: { output_config: { format: { type: 'json_schema', schema } } } },
  { label: 'other `output_config` keys (`task_budget`…)', body: { output_config: { task_budget: { type: 'tokens', total: 20000 } } }, field: 'output_config.task_budget' },
  { label: '`context_management`', body: { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } } },
  {
    label: '`cache_control` (any block, system block or tool; see [prompt-caching.md](prompt-caching.md))',
    body: { messages: [user([{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }])] },
    field: 'cache_control',
  },
  { label: '`metadata.user_id`', body: { metadata: { user_id: 'user-1' } } },
  { label: 'other `metadata` keys', body: { metadata: { session: 's-1' } }, field: 'metadata' },
  { label: '`mcp_servers`', body: { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }] } },
  { label: 'unknown top-level keys (`service_tier`, `container`, `inference_geo`…)', body: { service_tier: 'auto' }, field: 'service_tier' },
  { label: '`top_k`', body: { top_k: 40 } },
  { label: 'custom tools', body: { tools: [customTool] } },
  { label: 'custom tool `defer_loading: true`', body: { tools: [{ ...customTool, defer_loading: true }] }, field: 'defer_loading' },
  { label: 'custom tool `strict`', body: { tools: [{ ...customTool, strict: true }] } },
  { label: 'custom tool `eager_input_streaming`, `input_examples`, other keys', body: { tools: [{ ...customTool, eager_input_streaming: true }] }, field: 'eager_input_streaming' },
  { label: '`web_search_*` typed tool', body: { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, field: 'tool web_search_20250305' },
  { label: '`web_fetch_*` typed tool', body: { tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] }, field: 'tool web_fetch_20250910' },
  { label: '`code_execution_*` typed tool', body: { tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }, field: 'tool code_execution_20250825' },
  {
    label: 'other typed tools (`bash_*`, `computer_*`, `text_editor_*`, `memory_*`, `tool_search_tool_*`, `mcp_toolset`…)',
    body: { tools: [{ type: 'bash_20250124', name: 'bash' }] },
    field: 'tool bash_20250124',
  },
  {
    label: 'a typed tool forced by `tool_choice`, not runnable there',
    body: { tools: [{ type: 'bash_20250124', name: 'bash' }], tool_choice: { type: 'tool', name: 'bash' } },
    field: 'tool bash_20250124',
  },
  {
    label: 'assistant `server_tool_use`, `*_tool_result`, `mcp_tool_use`/`mcp_tool_result`, other unknown blocks',
    body: {
      messages: [
        user('Search for it.'),
        assistant([
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'switchyard' } },
          { type: 'text', text: 'Found it.' },
        ]),
        user('Thanks.'),
      ],
    },
    field: 'content block server_tool_use',
  },
  {
    label: '`search_result` block (any turn, or inside a tool result)',
    body: { messages: [user([{ type: 'search_result', source: 'https://example.com', title: 'Example', content: [{ type: 'text', text: 'A result.' }] }])] },
  },
  { label: '`tool_reference` block (tool search result)', body: { messages: [user([{ type: 'tool_reference', tool_name: 'get_weather' }])] } },
  {
    label: 'unknown block in a user turn or tool result (`container_upload`, future types)',
    body: { messages: [user([{ type: 'container_upload', file_id: 'file_1' }])] },
    field: 'content block container_upload',
  },
];
