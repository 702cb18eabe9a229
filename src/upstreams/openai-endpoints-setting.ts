/**
 * The keys that say which of OpenAI's other endpoints an OpenAI-speaking
 * server offers itself (moderations, images, audio, the Files and Batch
 * APIs), shared by the openai-chat and openai-responses types; unset, each
 * is on where the base URL is OpenAI's.
 */
import { z } from 'zod';
import { isOpenAiBaseUrl } from './openai-origin.js';

const flag = (description: string) => z.boolean({ error: 'must be true or false' }).optional().describe(description);

/** The keys, their descriptions naming OpenAI's base URL as `openAiBase` says it for the type (e.g. "`api.openai.com`, the default"). */
export function openAiEndpointsSettingsShape(openAiBase: string) {
  const unset = `Unset: true when the base URL is OpenAI's (${openAiBase}), false otherwise`;
  return {
    moderationsEndpoint: flag(`The server offers OpenAI's moderations at \`<base>/moderations\`: \`/v1/moderations\` requests for the channel's models are passed to it as they are. ${unset}.`),
    imagesEndpoint: flag(
      `The server offers OpenAI's image endpoints at \`<base>/images/generations\` and \`<base>/images/edits\`: \`/v1/images/*\` requests for the channel's models are passed to it as they are. ${unset}.`,
    ),
    audioEndpoint: flag(
      `The server offers OpenAI's audio endpoints at \`<base>/audio/speech\`, \`<base>/audio/transcriptions\` and \`<base>/audio/translations\`: \`/v1/audio/*\` requests for the channel's models are passed to it as they are. ${unset}.`,
    ),
    batchApi: flag(
      `The server offers OpenAI's Files and Batch APIs at \`<base>/files\` and \`<base>/batches\`: the lines of a client's OpenAI batch whose model this channel would serve first are sent as one upstream batch per model, at the upstream's batch price (docs/batches.md). ${unset} (vLLM, DeepSeek and most compatible servers have no batch API).`,
    ),
  } as const;
}

/** The keys as a channel's parsed settings hold them. */
export interface OpenAiEndpointsSettings {
  moderationsEndpoint?: boolean;
  imagesEndpoint?: boolean;
  audioEndpoint?: boolean;
  batchApi?: boolean;
}

/** Whether a channel's server takes moderations: the setting, else whether its base URL is OpenAI's. */
export const offersModerations = (settings: OpenAiEndpointsSettings, baseUrl: string): boolean => settings.moderationsEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's image endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersImages = (settings: OpenAiEndpointsSettings, baseUrl: string): boolean => settings.imagesEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's audio endpoints: the setting, else whether its base URL is OpenAI's. */
export const offersAudio = (settings: OpenAiEndpointsSettings, baseUrl: string): boolean => settings.audioEndpoint ?? isOpenAiBaseUrl(baseUrl);

/** Whether a channel's server takes OpenAI's Batch API: the setting, else whether its base URL is OpenAI's. */
export const offersBatchApi = (settings: OpenAiEndpointsSettings, baseUrl: string): boolean => settings.batchApi ?? isOpenAiBaseUrl(baseUrl);
