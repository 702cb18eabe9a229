/**
 * The `openai-videos` channel's settings: `baseUrl` is the `/v1` prefix
 * (`https://api.openai.com/v1`); in `settings`, all optional,
 * `maxVideoBytes` bounds a download and `variants: false` skips fetching the
 * thumbnail and sprite sheet.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import type { Channel } from '../../core/channel.js';
import { GatewayError } from '../../core/errors.js';
import { typedChannelSettings, type TypedSettingsOf } from '../typed-settings.js';
import { maxVideoBytesSetting } from '../video-limits.js';

export const openAiVideosSettingsShape = builtOnce(
  () =>
    ({
      maxVideoBytes: maxVideoBytesSetting(),
      variants: z
        .boolean({ error: 'must be true or false' })
        .nullish()
        .meta({ default: true })
        .transform((value) => value ?? true)
        .describe('`false`: skip fetching the thumbnail and sprite sheet of a finished video.'),
    }) as const,
);

export const openAiVideosSettings = typedChannelSettings('openai-videos', openAiVideosSettingsShape);

export type OpenAiVideosSettings = TypedSettingsOf<typeof openAiVideosSettingsShape>;

/** An openai-videos channel's settings, typed (see typed-settings.ts); the channel must have its `/v1` prefix. */
export function readOpenAiVideosSettings(channel: Channel): OpenAiVideosSettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `openai-videos channel ${channel.name}: baseUrl must be set (the /v1 prefix)`);
  return openAiVideosSettings.of(channel);
}
