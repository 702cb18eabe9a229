/** The openai-responses channel's settings. */
import { z } from 'zod';
import { promptCacheKeySetting } from '../prompt-cache-settings.js';
import type { ParsedSettings } from '../settings-check.js';

export const openAiResponsesSettingsShape = {
  promptCacheKey: promptCacheKeySetting,
  dropUnsupportedParams: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('Drop stop sequences (which the Responses API lacks) from translated requests instead of refusing them.'),
} as const;

export type OpenAiResponsesSettings = ParsedSettings<typeof openAiResponsesSettingsShape>;

export const openAiResponsesLooseWhenStored = ['dropUnsupportedParams'] as const;
