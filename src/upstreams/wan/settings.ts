/**
 * The `wan` channel's settings: `baseUrl` is the service origin
 * (`https://dashscope.aliyuncs.com`); in `channel.settings`, all optional,
 * `submitPath` and `taskPath` (the service's paths, `{id}` standing for the
 * task id) and `maxVideoBytes` (bound on a download).
 */
import { GatewayError } from '../../core/errors.js';
import { z } from 'zod';
import { maxVideoBytesSetting, readMaxVideoBytes } from '../video-limits.js';
import type { Channel } from '../../core/channel.js';

export interface WanSettings {
  submitPath: string;
  taskPath: string;
  maxVideoBytes: number;
}

function path(channel: Channel, key: string, fallback: string): string {
  const value = channel.settings[key] ?? fallback;
  if (typeof value !== 'string' || !/^(\/[\w.~{}-]+)+$/.test(value)) {
    throw new GatewayError('internal', `wan channel ${channel.name}: setting ${key} must be a path such as ${fallback}`);
  }
  return value;
}

export function readWanSettings(channel: Channel): WanSettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `wan channel ${channel.name}: baseUrl must be set (the service origin)`);
  const taskPath = path(channel, 'taskPath', '/api/v1/tasks/{id}');
  if (!taskPath.includes('{id}')) throw new GatewayError('internal', `wan channel ${channel.name}: setting taskPath must contain {id}`);
  return {
    submitPath: path(channel, 'submitPath', '/api/v1/services/aigc/video-generation/video-synthesis'),
    taskPath,
    maxVideoBytes: readMaxVideoBytes(channel),
  };
}

const servicePath = (fallback: string, description: string) =>
  z
    .string({ error: `must be a path such as ${fallback}` })
    .regex(/^(\/[\w.~{}-]+)+$/, `must be a path such as ${fallback}`)
    .nullish()
    .describe(description)
    .meta({ default: fallback });

export const wanSettingsShape = {
  submitPath: servicePath('/api/v1/services/aigc/video-generation/video-synthesis', 'The path a video task is submitted to.'),
  taskPath: servicePath('/api/v1/tasks/{id}', 'The path a task is polled at, `{id}` standing for the task id.').refine(
    (value) => value === undefined || value === null || value.includes('{id}'),
    'must contain {id}',
  ),
  maxVideoBytes: maxVideoBytesSetting,
} as const;
