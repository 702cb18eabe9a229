/**
 * The services an `openai-chat` channel names with its `preset` setting:
 * each one's base URL and quirks, as data. A preset supplies defaults only:
 * the channel's own base URL and settings win (settings-check.ts fills them
 * in before the schema's defaults, once per refresh).
 *
 * What each entry relies on (the providers' API docs, read for issue 34):
 * - Every hosted service but OpenRouter has no `prompt_cache_key` (they cache
 *   on their own): `promptCacheKey: false` keeps a client's key from them.
 * - DeepSeek: `max_tokens`; thinking mode returns `reasoning_content` and
 *   wants it back on a tool-call turn; `response_format` is `json_object`
 *   only; thinking mode ignores `temperature`/`top_p`/penalties without an
 *   error (left to it: model-specific).
 * - xAI: the reasoning models (grok-4 and later) answer 400 to
 *   `presence_penalty` and `frequency_penalty`.
 * - Mistral: `max_tokens`; its request schema refuses fields it does not
 *   know (422), among them `stream_options` (its last stream chunk carries
 *   the usage anyway), `seed` (it names it `random_seed`) and `user`;
 *   `reasoning_effort` only some models take, so it is left out.
 * - Groq: `max_completion_tokens`, stream usage on request; refuses
 *   `logprobs`, `n` > 1 and `messages[].name`, none of which a translated
 *   request carries (a Chat Completions client's own come back as Groq's 400).
 * - OpenRouter: `max_tokens`; `reasoning`/`reasoning_details`, usage in streams.
 * - Together, Fireworks: `max_tokens`; usage in the last stream chunk.
 *   Together has rerank at `/v1/rerank` (`usage.prompt_tokens`).
 * - Cerebras: answers 400 to `frequency_penalty`, `presence_penalty` and
 *   `parallel_tool_calls`; its streams end with the usage unasked.
 * - vLLM: both budget fields, `stream_options`, `reasoning_content`/`reasoning`;
 *   rerank at `/v1/rerank` (Jina/Cohere shape, `usage.total_tokens`).
 * - Ollama: `max_tokens` (no `max_completion_tokens`), `stream_options`;
 *   ignores `parallel_tool_calls` and `user` (its compatibility list has neither).
 * - LM Studio: `max_tokens`, `stream_options`, `reasoning_content`.
 */
import type { ChatCompletionsSettings } from '../protocols/chat-completions/settings.js';
import type { ImpliedDefaults } from '../settings-check.js';

export const CHAT_PRESET_NAMES = ['deepseek', 'xai', 'mistral', 'groq', 'openrouter', 'together', 'fireworks', 'cerebras', 'vllm', 'ollama', 'lm-studio'] as const;

export type ChatPresetName = (typeof CHAT_PRESET_NAMES)[number];

export interface ChatPreset {
  /** The service, as docs/providers.md names it. */
  readonly service: string;
  /** The `/v1` prefix (or the service's equivalent): the channel's base URL when it sets none. */
  readonly baseUrl: string;
  /** The protocol settings the service needs, each a default the channel may override. */
  readonly settings: Readonly<Partial<ChatCompletionsSettings>> /** Where the service takes rerank requests under its base URL, if it does (the channel's `rerankEndpoint` default). */;
  readonly rerankEndpoint?: string;
}

const NO_CACHE_KEY = { promptCacheKey: false } as const;

export const CHAT_PRESETS: Readonly<Record<ChatPresetName, ChatPreset>> = {
  deepseek: {
    service: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens', reasoningContent: true, unsupportedFields: ['response_format.json_schema'] },
  },
  xai: { service: 'xAI', baseUrl: 'https://api.x.ai/v1', settings: { ...NO_CACHE_KEY, unsupportedFields: ['presence_penalty', 'frequency_penalty'] } },
  mistral: {
    service: 'Mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens', streamUsage: false, unsupportedFields: ['seed', 'user', 'reasoning_effort'] },
  },
  groq: { service: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', settings: { ...NO_CACHE_KEY } },
  openrouter: { service: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', settings: { maxTokensField: 'max_tokens' } },
  together: { service: 'Together AI', baseUrl: 'https://api.together.xyz/v1', settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens' }, rerankEndpoint: '/rerank' },
  fireworks: { service: 'Fireworks AI', baseUrl: 'https://api.fireworks.ai/inference/v1', settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens' } },
  cerebras: {
    service: 'Cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    settings: { ...NO_CACHE_KEY, streamUsage: false, unsupportedFields: ['presence_penalty', 'frequency_penalty', 'parallel_tool_calls'] },
  },
  vllm: { service: 'vLLM', baseUrl: 'http://localhost:8000/v1', settings: { ...NO_CACHE_KEY }, rerankEndpoint: '/rerank' },
  ollama: {
    service: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens', unsupportedFields: ['parallel_tool_calls', 'user'] },
  },
  'lm-studio': { service: 'LM Studio', baseUrl: 'http://localhost:1234/v1', settings: { ...NO_CACHE_KEY, maxTokensField: 'max_tokens' } },
};

/** Each preset's settings, by name: the defaults a `preset` implies (settings-check.ts fills them in; the admin API publishes them). */
export const CHAT_PRESET_DEFAULTS: ImpliedDefaults = {
  key: 'preset',
  byValue: Object.fromEntries(CHAT_PRESET_NAMES.map((name) => [name, presetDefaults(CHAT_PRESETS[name])])),
};

/** A preset's defaults for a channel: its protocol settings, and the type's own keys it has values for. */
function presetDefaults(preset: ChatPreset): Record<string, unknown> {
  return preset.rerankEndpoint === undefined ? preset.settings : { ...preset.settings, rerankEndpoint: preset.rerankEndpoint };
}
