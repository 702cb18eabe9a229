/**
 * The bound on one downloaded video, shared by the video upstreams: the
 * channel setting `maxVideoBytes`, checked when read.
 */
import type { Channel } from '../core/channel.js';
import { GatewayError } from '../core/errors.js';
import { byteLimit } from './settings-schema.js';

export const DEFAULT_MAX_VIDEO_BYTES = 512 * 1024 * 1024;

export function readMaxVideoBytes(channel: Channel): number {
  const value = channel.settings.maxVideoBytes ?? DEFAULT_MAX_VIDEO_BYTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new GatewayError('internal', `${channel.type} channel ${channel.name}: setting maxVideoBytes must be a positive integer`);
  }
  return value;
}

export const maxVideoBytesSetting = byteLimit(DEFAULT_MAX_VIDEO_BYTES, 'Largest video downloaded from the service, in bytes.');
