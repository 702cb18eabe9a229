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
import { isOpenAiBaseUrl } from '../openai-origin.js';

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
      moderationsEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's moderations at `<base>/moderations`: `/v1/moderations` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`), false otherwise.",
        ),
      imagesEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's image endpoints at `<base>/images/generations` and `<base>/images/edits`: `/v1/images/*` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`), false otherwise.",
        ),
      audioEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's audio endpoints at `<base>/audio/speech`, `<base>/audio/transcriptions` and `<base>/audio/translations`: `/v1/audio/*` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`), false otherwise.",
        ),
      batchApi: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's Files and Batch APIs at `<base>/files` and `<base>/batches`: the lines of a client's OpenAI batch whose model this channel would serve first are sent as one upstream batch per model, at the upstream's batch price (docs/batches.md). Unset: true when the base URL is OpenAI's (`api.openai.com`), false otherwise (vLLM, DeepSeek and most compatible servers have no batch API).",
        ),
    }) as const,
);

export const openAiChatSettings = typedChannelSettings('openai-chat', openAiChatSettingsShape, chatCompletionsLooseWhenStored, CHAT_PRESET_DEFAULTS);

/** An openai-chat channel's settings as its schema outputs them, every default filled in. */
export type OpenAiChatSettings = TypedSettingsOf<typeof openAiChatSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiChatSettingsOf = (channel: SettingsHolder): OpenAiChatSettings => openAiChatSettings.of(channel);

/** Whether a channel's server takes moderations: the setting, else whether its base URL is OpenAI's. */
export const offersModerations = (settings: OpenAiChatSettings, baseUrl: string): boolean => settings.moderationsEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's image endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersImages = (settings: OpenAiChatSettings, baseUrl: string): boolean => settings.imagesEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's audio endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersAudio = (settings: OpenAiChatSettings, baseUrl: string): boolean => settings.audioEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's Batch API: the setting, else whether its base URL is OpenAI's. */
export const offersBatchApi = (settings: OpenAiChatSettings, baseUrl: string): boolean => settings.batchApi ?? isOpenAiBaseUrl(baseUrl);
