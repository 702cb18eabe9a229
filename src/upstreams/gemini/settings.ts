/** The gemini channel's settings. */
import { z } from 'zod';

export const geminiSettingsShape = {
  apiVersion: z
    .string()
    .regex(/^v\d+(alpha|beta)?\d*$/, 'must be an API version such as v1 or v1beta')
    .default('v1beta')
    .describe('The Generative Language API version in the request path (`v1beta`, `v1`, `v1alpha`).'),
} as const;

export const geminiLooseWhenStored = ['apiVersion'] as const;
