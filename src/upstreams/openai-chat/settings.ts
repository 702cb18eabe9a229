/** The openai-chat channel's settings. */
import { z } from 'zod';
import { promptCacheKeySetting } from '../prompt-cache-settings.js';
import { onUnlessFalse } from '../settings-schema.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettings } from '../typed-settings.js';

export const openAiChatSettingsShape = {
  promptCacheKey: promptCacheKeySetting,
  maxTokensField: z
    .enum(['max_completion_tokens', 'max_tokens'])
    .default('max_completion_tokens')
    .describe('The field a translated request carries its output budget in; `max_tokens` for older OpenAI-compatible servers.'),
  streamUsage: onUnlessFalse('Ask a stream for its usage (`stream_options.include_usage`); `false` for servers that refuse the option.'),
  systemRole: z.enum(['system', 'developer']).default('system').describe('The role system turns are sent with.'),
  reasoningContent: z.boolean({ error: 'must be true or false' }).default(false).describe("Send an assistant turn's reasoning back as `reasoning_content` (DeepSeek-style servers)."),
} as const;

export const openAiChatLooseWhenStored = ['maxTokensField', 'streamUsage', 'systemRole', 'reasoningContent'] as const;

export const openAiChatSettings = typedChannelSettings('openai-chat', openAiChatSettingsShape, openAiChatLooseWhenStored);

/** An openai-chat channel's settings as its schema outputs them, every default filled in. */
export type OpenAiChatSettings = TypedSettings<typeof openAiChatSettingsShape>;

/** A channel's settings, typed, for the pass-through path (translation gets them typed in `prepare`). */
export const openAiChatSettingsOf = (channel: SettingsHolder): OpenAiChatSettings => openAiChatSettings.of(channel);
