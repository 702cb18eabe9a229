/**
 * The `openai-videos` channel's settings: `baseUrl` is the `/v1` prefix
 * (`https://api.openai.com/v1`); in `channel.settings`, all optional,
 * `maxVideoBytes` bounds a download and `variants: false` skips fetching the
 * thumbnail and sprite sheet.
 */
import { GatewayError } from '../../core/errors.js';
import type { Channel } from '../../core/channel.js';
import { z } from 'zod';
import { maxVideoBytesSetting, readMaxVideoBytes } from '../video-limits.js';

export interface OpenAiVideosSettings {
  maxVideoBytes: number;
  variants: boolean;
}

export function readOpenAiVideosSettings(channel: Channel): OpenAiVideosSettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `openai-videos channel ${channel.name}: baseUrl must be set (the /v1 prefix)`);
  const variants = channel.settings.variants ?? true;
  if (typeof variants !== 'boolean') throw new GatewayError('internal', `openai-videos channel ${channel.name}: setting variants must be true or false`);
  return { maxVideoBytes: readMaxVideoBytes(channel), variants };
}

export const openAiVideosSettingsShape = {
  maxVideoBytes: maxVideoBytesSetting,
  variants: z.boolean({ error: 'must be true or false' }).nullish().describe('`false`: skip fetching the thumbnail and sprite sheet of a finished video.').meta({ default: true }),
} as const;
