/**
 * The openai-responses channel's settings: the Responses protocol's keys
 * (protocols/responses/settings.ts), and `moderationsEndpoint` and
 * `imagesEndpoint`, which say the server takes OpenAI's moderations and
 * images itself, and `audioEndpoint`, audio, and `batchApi`, OpenAI's Batch
 * API.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { responsesLooseWhenStored, responsesSettingsShape } from '../protocols/responses/settings.js';
import { isOpenAiBaseUrl } from '../openai-origin.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const openAiResponsesSettingsShape = builtOnce(
  () =>
    ({
      ...responsesSettingsShape(),
      moderationsEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's moderations at `<base>/moderations`: `/v1/moderations` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`, the default), false otherwise.",
        ),
      imagesEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's image endpoints at `<base>/images/generations` and `<base>/images/edits`: `/v1/images/*` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`, the default), false otherwise.",
        ),
      audioEndpoint: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's audio endpoints at `<base>/audio/speech`, `<base>/audio/transcriptions` and `<base>/audio/translations`: `/v1/audio/*` requests for the channel's models are passed to it as they are. Unset: true when the base URL is OpenAI's (`api.openai.com`, the default), false otherwise.",
        ),
      batchApi: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          "The server offers OpenAI's Files and Batch APIs at `<base>/files` and `<base>/batches`: the lines of a client's OpenAI batch whose model this channel would serve first are sent as one upstream batch per model, at the upstream's batch price (docs/batches.md). Unset: true when the base URL is OpenAI's (`api.openai.com`, the default), false otherwise (vLLM, DeepSeek and most compatible servers have no batch API).",
        ),
    }) as const,
);

export const openAiResponsesSettings = typedChannelSettings('openai-responses', openAiResponsesSettingsShape, responsesLooseWhenStored);

/** An openai-responses channel's settings as its schema outputs them, every default filled in. */
export type OpenAiResponsesSettings = TypedSettingsOf<typeof openAiResponsesSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiResponsesSettingsOf = (channel: SettingsHolder): OpenAiResponsesSettings => openAiResponsesSettings.of(channel);

/** Whether a channel's server takes moderations: the setting, else whether its base URL is OpenAI's. */
export const offersModerations = (settings: OpenAiResponsesSettings, baseUrl: string): boolean => settings.moderationsEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's image endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersImages = (settings: OpenAiResponsesSettings, baseUrl: string): boolean => settings.imagesEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's audio endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersAudio = (settings: OpenAiResponsesSettings, baseUrl: string): boolean => settings.audioEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's Batch API: the setting, else whether its base URL is OpenAI's. */
export const offersBatchApi = (settings: OpenAiResponsesSettings, baseUrl: string): boolean => settings.batchApi ?? isOpenAiBaseUrl(baseUrl);
