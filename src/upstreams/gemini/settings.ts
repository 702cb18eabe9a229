/** The gemini channel's settings. */
import { z } from 'zod';
import type { ParsedSettings } from '../settings-check.js';

export const geminiSettingsShape = {
  apiVersion: z
    .string()
    .regex(/^v\d+(alpha|beta)?\d*$/, 'must be an API version such as v1 or v1beta')
    .default('v1beta')
    .describe('The Generative Language API version in the request path (`v1beta`, `v1`, `v1alpha`).'),
} as const;

export type GeminiSettings = ParsedSettings<typeof geminiSettingsShape>;

/** A channel's (or a plan's) settings as the registry parsed them: defaults filled, ignored keys left out. */
export const geminiSettingsOf = (holder: { readonly settings: Record<string, unknown> }): GeminiSettings => holder.settings as GeminiSettings;

export const geminiLooseWhenStored = ['apiVersion'] as const;
