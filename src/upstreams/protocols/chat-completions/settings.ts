/** The settings about speaking the Chat Completions dialect, which a provider of it includes in its type's schema. */
import { builtOnce } from '../../../core/built-once.js';
import { z } from 'zod';
import { promptCacheKeySetting } from '../../prompt-cache-settings.js';
import { onUnlessFalse } from '../../settings-schema.js';
import { typedChannelSettings, type TypedSettingsOf } from '../../typed-settings.js';

/** The fields a translated request may carry that a server may not take (`unsupportedFields`). */
export const UNSUPPORTABLE_FIELDS = ['seed', 'presence_penalty', 'frequency_penalty', 'parallel_tool_calls', 'user', 'reasoning_effort', 'stop', 'tool_choice', 'response_format.json_schema'] as const;

export type UnsupportableField = (typeof UNSUPPORTABLE_FIELDS)[number];

export const chatCompletionsSettingsShape = builtOnce(
  () =>
    ({
      promptCacheKey: promptCacheKeySetting(),
      maxTokensField: z
        .enum(['max_completion_tokens', 'max_tokens'])
        .default('max_completion_tokens')
        .describe('The field a translated request carries its output budget in; `max_tokens` for older OpenAI-compatible servers.'),
      streamUsage: onUnlessFalse('Ask a stream for its usage (`stream_options.include_usage`); `false` for servers that refuse the option.'),
      systemRole: z.enum(['system', 'developer']).default('system').describe('The role system turns are sent with.'),
      reasoningContent: z.boolean({ error: 'must be true or false' }).default(false).describe("Send an assistant turn's reasoning back as `reasoning_content` (DeepSeek-style servers)."),
      unsupportedFields: z
        .array(z.enum(UNSUPPORTABLE_FIELDS))
        .default([])
        .describe(
          'Request fields the server refuses or ignores. A translated request leaves each out: ignored (a hint in the translation plan) where that cannot change the answer (`seed`, penalties, `parallel_tool_calls`, `user`, `reasoning_effort`), else refused before routing (`stop`, a `tool_choice` other than auto, a `json_schema` response format).',
        ),
    }) as const,
);

export const chatCompletionsLooseWhenStored = ['maxTokensField', 'streamUsage', 'systemRole', 'reasoningContent'] as const;

/** The protocol's settings as a provider's schema outputs them, every default filled in (a provider's settings extend them). */
export type ChatCompletionsSettings = TypedSettingsOf<typeof chatCompletionsSettingsShape>;

/** The protocol's keys alone, for callers that build a body from a settings record with no channel type (tests, the docs' tables). */
export const chatCompletionsSettings = typedChannelSettings('chat-completions', chatCompletionsSettingsShape, chatCompletionsLooseWhenStored);
