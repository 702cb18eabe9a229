/** The settings about speaking the Responses dialect, which a provider of it includes in its type's schema. */
import { builtOnce } from '../../../core/built-once.js';
import { z } from 'zod';
import { promptCacheKeySetting } from '../../prompt-cache-settings.js';
import { typedChannelSettings, type TypedSettingsOf } from '../../typed-settings.js';

export const responsesSettingsShape = builtOnce(
  () =>
    ({
      promptCacheKey: promptCacheKeySetting(),
      dropUnsupportedParams: z
        .boolean({ error: 'must be true or false' })
        .default(false)
        .describe('Drop stop sequences (which the Responses API lacks) from translated requests instead of refusing them.'),
    }) as const,
);

export const responsesLooseWhenStored = ['dropUnsupportedParams'] as const;

/** The protocol's settings as a provider's schema outputs them, every default filled in (a provider's settings extend them). */
export type ResponsesSettings = TypedSettingsOf<typeof responsesSettingsShape>;

/** The protocol's keys alone, for callers that build a body from a settings record with no channel type (tests, the docs' tables). */
export const responsesSettings = typedChannelSettings('responses', responsesSettingsShape, responsesLooseWhenStored);
