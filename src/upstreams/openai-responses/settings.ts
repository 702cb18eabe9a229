/**
 * The openai-responses channel's settings: the Responses protocol's keys
 * (protocols/responses/settings.ts), and `moderationsEndpoint` and
 * `imagesEndpoint`, which say the server takes OpenAI's moderations and
 * images itself, and `audioEndpoint`, audio, and `batchApi`, OpenAI's Batch
 * API.
 */
import { builtOnce } from '../../core/built-once.js';
import { responsesLooseWhenStored, responsesSettingsShape } from '../protocols/responses/settings.js';
import { openAiEndpointsSettingsShape } from '../openai-endpoints-setting.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const openAiResponsesSettingsShape = builtOnce(
  () =>
    ({
      ...responsesSettingsShape(),
      ...openAiEndpointsSettingsShape('`api.openai.com`, the default'),
    }) as const,
);

export const openAiResponsesSettings = typedChannelSettings('openai-responses', openAiResponsesSettingsShape, responsesLooseWhenStored);

/** An openai-responses channel's settings as its schema outputs them, every default filled in. */
export type OpenAiResponsesSettings = TypedSettingsOf<typeof openAiResponsesSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const openAiResponsesSettingsOf = (channel: SettingsHolder): OpenAiResponsesSettings => openAiResponsesSettings.of(channel);

export { offersAudio, offersBatchApi, offersImages, offersModerations } from '../openai-endpoints-setting.js';
