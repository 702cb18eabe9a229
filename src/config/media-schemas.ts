/** The config file's sections about generated media: video generation and OpenAI image generation. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';

/** Video generation (family B). */
export const videosSchema = builtOnce(() =>
  z.strictObject({
    defaultModel: z.string().min(1).max(256).optional().describe('The model used when a request names none (default `sora-2`).'),
    retentionSeconds: z.number().int().positive().optional().describe('How long a finished video stays downloadable, in seconds from when the gateway stored it (default 86400).'),
  }),
);

/** OpenAI image generation and editing (`/v1/images/*`). */
const urlExpiry = 'How long a `url` answer the gateway stores stays downloadable, in seconds (default 3600, as OpenAI’s); 0 keeps it.';
export const imageGenerationsSchema = builtOnce(() => z.strictObject({ urlExpirySeconds: z.number().int().nonnegative().optional().describe(urlExpiry) }));
