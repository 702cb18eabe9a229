/**
 * The openai-chat channel's settings: the Chat Completions protocol's keys
 * (protocols/chat-completions/settings.ts), and `preset`, which names a
 * known service whose base URL and quirks (presets.ts) become the channel's
 * defaults, and `completionsEndpoint`, `rerankEndpoint` and
 * `moderationsEndpoint` and `imagesEndpoint`, which say the server takes
 * legacy Completions, rerank, moderations and images itself, and
 * `audioEndpoint`, audio, and `batchApi`, OpenAI's Batch API.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { chatCompletionsLooseWhenStored, chatCompletionsSettingsShape } from '../protocols/chat-completions/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';
import { CHAT_PRESET_DEFAULTS, CHAT_PRESET_NAMES } from './presets.js';
import { openAiEndpointsSettingsShape } from '../openai-endpoints-setting.js';

export const openAiChatSettingsShape = builtOnce(
  () =>
    ({
      ...chatCompletionsSettingsShape(),
      preset: z
        .enum(CHAT_PRESET_NAMES)
        .optional()
        .describe(
          'A known OpenAI-compatible service: its address becomes the default base URL (the channel then needs none) and its quirks the defaults of the settings above (docs/providers.md lists each). A base URL or setting the channel gives wins.',
        ),
      completionsEndpoint: z
        .boolean({ error: 'must be true or false' })
        .default(false)
        .describe(
          "The server offers legacy Completions at `<base>/completions` (vLLM, Together, Fireworks, OpenAI's instruct models): a `/v1/completions` request is passed to it as it is, token-id prompts, `echo`, `suffix`, `logprobs` and `best_of` included. Otherwise it is translated through chat, and those are refused.",
        ),
      rerankEndpoint: z
        .string({ error: 'must be a path such as /rerank' })
        .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a path such as /rerank')
        .optional()
        .describe(
          "The path under the base URL where the server takes rerank requests (`/rerank` for vLLM and Together, their presets set it): `/v1/rerank` requests for the channel's models are passed to it as they are. Unset: the channel serves no rerank.",
        ),
      ...openAiEndpointsSettingsShape('`api.openai.com`'),
    }) as const,
);

export const openAiChatSettings = typedChannelSettings('openai-chat', openAiChatSettingsShape, chatCompletionsLooseWhenStored, CHAT_PRESET_DEFAULTS);

/** An openai-chat channel's settings as its schema outputs them, every default filled in. */
export type OpenAiChatSettings = TypedSettingsOf<typeof openAiChatSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiChatSettingsOf = (channel: SettingsHolder): OpenAiChatSettings => openAiChatSettings.of(channel);

export { offersAudio, offersBatchApi, offersImages, offersModerations } from '../openai-endpoints-setting.js';
