/** The gemini channel's settings: the content-generation protocol's keys (protocols/generate/settings.ts) and where the type addresses the API. */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { generateSettingsShape } from '../protocols/generate/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const geminiSettingsShape = builtOnce(
  () =>
    ({
      ...generateSettingsShape(),
      apiVersion: z
        .string()
        .regex(/^v\d+(alpha|beta)?\d*$/, 'must be an API version such as v1 or v1beta')
        .default('v1beta')
        .describe('The Generative Language API version in the request path (`v1beta`, `v1`, `v1alpha`).'),
    }) as const,
);

export const geminiLooseWhenStored = ['apiVersion'] as const;

export const geminiSettings = typedChannelSettings('gemini', geminiSettingsShape, geminiLooseWhenStored);

/** A gemini channel's settings as its schema outputs them, every default filled in. */
export type GeminiSettings = TypedSettingsOf<typeof geminiSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const geminiSettingsOf = (channel: SettingsHolder): GeminiSettings => geminiSettings.of(channel);
