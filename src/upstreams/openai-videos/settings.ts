/**
 * The `openai-videos` channel's settings: `baseUrl` is the `/v1` prefix
 * (`https://api.openai.com/v1`); in `channel.settings`, all optional,
 * `maxVideoBytes` bounds a download and `variants: false` skips fetching the
 * thumbnail and sprite sheet.
 */
import { GatewayError } from '../../core/errors.js';
import type { Channel } from '../../core/channel.js';

export interface OpenAiVideosSettings {
  maxVideoBytes: number;
  variants: boolean;
}

export const DEFAULT_MAX_VIDEO_BYTES = 512 * 1024 * 1024;

export function readMaxVideoBytes(channel: Channel): number {
  const value = channel.settings.maxVideoBytes ?? DEFAULT_MAX_VIDEO_BYTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new GatewayError('internal', `${channel.type} channel ${channel.name}: setting maxVideoBytes must be a positive integer`);
  }
  return value;
}

export function readOpenAiVideosSettings(channel: Channel): OpenAiVideosSettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `openai-videos channel ${channel.name}: baseUrl must be set (the /v1 prefix)`);
  const variants = channel.settings.variants ?? true;
  if (typeof variants !== 'boolean') throw new GatewayError('internal', `openai-videos channel ${channel.name}: setting variants must be true or false`);
  return { maxVideoBytes: readMaxVideoBytes(channel), variants };
}
