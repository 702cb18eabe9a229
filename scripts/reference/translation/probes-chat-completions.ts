/** Probe rows of the Chat Completions table (docs/translation/chat-completions.md): one client field each, in the family's dialect. */
import type { Probe } from './tables.js';

const user = (content: unknown) => ({ role: 'user', content });
const weather = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const tools = [{ type: 'function', function: weather }];
const feature = (label: string, body: Record<string, unknown>, field: string | readonly string[]): Probe => ({ label, body, field });
const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const toolLoop = [
  user('Weather in Paris?'),
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '21 degrees' },
];

export const chatCompletionsProbes: readonly Probe[] = [
  { label: 'leading `system`/`developer` messages', body: { messages: [{ role: 'developer', content: 'Be brief.' }, user('Hello')] } },
  {
    label: '`system`/`developer` messages after another message',
    body: { messages: [user('Hello'), { role: 'assistant', content: 'Hi.' }, { role: 'system', content: 'Be brief.' }, user('And now?')] },
    field: 'system messages',
  },
  {
    label: '`user` text, `image_url` (data URL or URL)',
    body: {
      messages: [
        user([
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } },
        ]),
      ],
    },
  },
  {
    label: '`input_audio` (wav)',
    body: { messages: [user([{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }])] },
    field: 'media type audio/wav',
  },
  {
    label: '`file` (`file_data`, a PDF)',
    body: { messages: [user([{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }])] },
  },
  { label: '`file.file_id` (a stored OpenAI file)', body: { messages: [user([{ type: 'file', file: { file_id: 'file_1' } }])] }, field: ['file.file_id', 'media type application/octet-stream'] },
  {
    label: 'unknown content part types (`video_url`…)',
    body: { messages: [user([{ type: 'video_url', video_url: { url: 'https://example.com/clip.mp4' } }])] },
    field: 'content part video_url',
  },
  { label: '`assistant` `tool_calls`, `tool` messages', body: { tools, messages: toolLoop } },
  {
    label: 'legacy `function_call` / `function` role',
    body: {
      functions: [weather],
      messages: [user('Weather in Paris?'), { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{}' } }, { role: 'function', name: 'get_weather', content: '21' }],
    },
  },
  {
    label: '`assistant` `reasoning_content`',
    body: { messages: [user('Hello'), { role: 'assistant', content: 'Hi.', reasoning_content: 'Greet back.' }, user('And now?')] },
  },
  { label: '`tools` `function`, legacy `functions`', body: { tools } },
  { label: '`tools` of another type (`custom`…)', body: { tools: [{ type: 'custom', custom: { name: 'apply_patch' } }] }, field: 'tool custom' },
  { label: '`tool_choice` `none`/`auto`/`required`/function, legacy `function_call`', body: { tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } } },
  {
    label: '`tool_choice` `allowed_tools` (and other types)',
    body: { tools, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] } } },
    field: 'tool_choice allowed_tools',
  },
  { label: '`parallel_tool_calls: false`', body: { tools, parallel_tool_calls: false }, field: ['parallel_tool_calls: false', 'parallel_tool_calls'] },
  { label: '`response_format` `json_schema`', body: { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } } },
  { label: '`response_format` `json_object`', body: { response_format: { type: 'json_object' } }, field: ['response_format', 'response_format json_object'] },
  { label: '`max_completion_tokens` (else `max_tokens`)', body: { max_completion_tokens: 512 } },
  { label: '`temperature`, `top_p`', body: { temperature: 0.5, top_p: 0.9 } },
  { label: '`stop`', body: { stop: ['END'] }, field: 'stop_sequences' },
  { label: '`stop`, channel setting `dropUnsupportedParams: true`', body: { stop: ['END'] }, field: 'stop_sequences', settings: { 'openai-responses': { dropUnsupportedParams: true } } },
  { label: '`seed`', body: { seed: 7 } },
  { label: '`presence_penalty`, `frequency_penalty`', body: { presence_penalty: 0.5, frequency_penalty: 0.5 }, field: ['presence_penalty', 'frequency_penalty'] },
  { label: '`reasoning_effort`', body: { reasoning_effort: 'high' } },
  {
    label: '`reasoning_effort` in a tool loop whose assistant turn carries no signed thought',
    body: { reasoning_effort: 'high', tools, messages: toolLoop },
    field: ['thinking', 'reasoning_effort'],
  },
  { label: '`reasoning_effort: "none"`', body: { reasoning_effort: 'none' } },
  { label: '`web_search_options`', body: { web_search_options: {} }, field: 'tool web_search_options' },
  feature('`n` > 1', { n: 2 }, 'n'),
  feature('`logprobs`', { logprobs: true }, 'logprobs'),
  feature('`top_logprobs` > 0', { logprobs: true, top_logprobs: 3 }, ['logprobs', 'top_logprobs']),
  feature('`logit_bias`', { logit_bias: { '50256': -100 } }, 'logit_bias'),
  feature('`modalities` with `audio`, `audio`', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, ['modalities', 'audio']),
  { label: '`user`', body: { user: 'user-1' } },
  { label: '`store`', body: { store: true } },
  { label: '`metadata`', body: { metadata: { session: 's-1' } } },
  { label: '`service_tier`', body: { service_tier: 'flex' } },
  { label: '`prediction`', body: { prediction: { type: 'content', content: 'Hello' } } },
  { label: '`safety_identifier`', body: { safety_identifier: 'user-1' } },
  { label: '`verbosity`', body: { verbosity: 'low' } },
  { label: 'unknown fields', body: { provider_extra: true }, field: 'provider_extra' },
  { label: '`prompt_cache_key` ([prompt-caching.md](prompt-caching.md))', body: { prompt_cache_key: 'session-1' } },
  {
    label: '`prompt_cache_key`, channel settings `cacheBreakpoints: false` / `promptCacheKey: false`',
    body: { prompt_cache_key: 'session-1' },
    settings: { anthropic: { cacheBreakpoints: false }, 'openai-responses': { promptCacheKey: false } },
  },
  { label: '`prompt_cache_retention`', body: { prompt_cache_retention: '24h' } },
  {
    label: '`cache_control` on messages or content parts (an extension opencode sends for Claude models)',
    body: { messages: [user([{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }])] },
    field: 'cache_control',
  },
];
