/**
 * The channel settings that turn prompt-cache fields off: `cacheBreakpoints`
 * (anthropic: the gateway's own breakpoints) and `promptCacheKey` (OpenAI
 * types: `prompt_cache_key` and `prompt_cache_retention`). Each is on unless
 * `false`; anything but a boolean is refused rather than read as on.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';

export const promptCacheKeySetting = builtOnce(() =>
  z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe(
      "`false`: never send `prompt_cache_key`/`prompt_cache_retention`; `true`: send the gateway's own key even where the client set none. Unset: the client's fields pass, and the gateway adds its key on translated requests.",
    ),
);

export const cacheBreakpointsSetting = builtOnce(() =>
  z.boolean({ error: 'must be true or false' }).default(true).describe("Place the gateway's own prompt-cache breakpoints on translated requests; `false` leaves only the client's."),
);
