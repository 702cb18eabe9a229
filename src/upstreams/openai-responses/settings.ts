/** The openai-responses channel's settings. */
import { z } from 'zod';
import { promptCacheKeySetting } from '../prompt-cache-settings.js';
import { typedChannelSettings, type TypedSettings } from '../typed-settings.js';

export const openAiResponsesSettingsShape = {
  promptCacheKey: promptCacheKeySetting,
  dropUnsupportedParams: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('Drop stop sequences (which the Responses API lacks) from translated requests instead of refusing them.'),
} as const;

export const openAiResponsesLooseWhenStored = ['dropUnsupportedParams'] as const;

export const openAiResponsesSettings = typedChannelSettings('openai-responses', openAiResponsesSettingsShape, openAiResponsesLooseWhenStored);

/** An openai-responses channel's settings as its schema outputs them, every default filled in. */
export type OpenAiResponsesSettings = TypedSettings<typeof openAiResponsesSettingsShape>;
