/**
 * The `wan` channel's settings: `baseUrl` is the service origin
 * (`https://dashscope.aliyuncs.com`); in `settings`, all optional,
 * `submitPath` and `taskPath` (the service's paths, `{id}` standing for the
 * task id) and `maxVideoBytes` (bound on a download).
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import type { Channel } from '../../core/channel.js';
import { GatewayError } from '../../core/errors.js';
import { typedChannelSettings, type TypedSettingsOf } from '../typed-settings.js';
import { maxVideoBytesSetting } from '../video-limits.js';

/** A service path; null stands for unset, read as the default. */
const servicePath = (fallback: string, description: string) =>
  z
    .string({ error: `must be a path such as ${fallback}` })
    .regex(/^(\/[\w.~{}-]+)+$/, `must be a path such as ${fallback}`)
    .nullish()
    .meta({ default: fallback })
    .transform((value) => value ?? fallback)
    .describe(description);

export const wanSettingsShape = builtOnce(
  () =>
    ({
      submitPath: servicePath('/api/v1/services/aigc/video-generation/video-synthesis', 'The path a video task is submitted to.'),
      taskPath: servicePath('/api/v1/tasks/{id}', 'The path a task is polled at, `{id}` standing for the task id.').refine((value) => value.includes('{id}'), 'must contain {id}'),
      maxVideoBytes: maxVideoBytesSetting(),
    }) as const,
);

export const wanSettings = typedChannelSettings('wan', wanSettingsShape);

export type WanSettings = TypedSettingsOf<typeof wanSettingsShape>;

/** A wan channel's settings, typed (see typed-settings.ts); the channel must have its origin. */
export function readWanSettings(channel: Channel): WanSettings {
  if (!channel.baseUrl) throw new GatewayError('internal', `wan channel ${channel.name}: baseUrl must be set (the service origin)`);
  return wanSettings.of(channel);
}
