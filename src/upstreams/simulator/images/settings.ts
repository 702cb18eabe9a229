/** The image simulator's knobs, read from `channel.settings`; all optional. */
import { GatewayError } from '../../../core/errors.js';
import type { Channel } from '../../../core/channel.js';

export interface ImageSimulatorSettings {
  /** How long a task takes from start to finish (seconds; fractions allowed). */
  taskSeconds: number;
  /** `true`: every task fails; a list of actions (e.g. ["UPSCALE"]): tasks of those actions fail. */
  failTasks: boolean | string[];
  /** Tasks an account runs at once; the rest wait in NOT_START and the submission answers "queued". Unset: no limit. */
  concurrency?: number;
  /** Long side of the painted images, in pixels. */
  imageSize: number;
}

function invalid(channel: Channel, key: string, rule: string): GatewayError {
  return new GatewayError('internal', `simulator channel ${channel.name}: setting ${key} must be ${rule}`);
}

function readNumber(channel: Channel, key: string, min: number): number | undefined {
  const raw = channel.settings[key];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw invalid(channel, key, `a number >= ${min}`);
  return value;
}

export function readImageSimulatorSettings(channel: Channel): ImageSimulatorSettings {
  const failTasks = channel.settings.failTasks ?? false;
  if (typeof failTasks !== 'boolean' && !(Array.isArray(failTasks) && failTasks.every((item) => typeof item === 'string'))) {
    throw invalid(channel, 'failTasks', 'true, false or a list of actions');
  }
  const concurrency = readNumber(channel, 'concurrency', 1);
  const imageSize = readNumber(channel, 'imageSize', 16) ?? 512;
  if (imageSize > 4096) throw invalid(channel, 'imageSize', 'at most 4096');
  return {
    taskSeconds: readNumber(channel, 'taskSeconds', 0) ?? 5,
    failTasks: failTasks as boolean | string[],
    concurrency: concurrency === undefined ? undefined : Math.floor(concurrency),
    imageSize: Math.round(imageSize),
  };
}

export function failsAction(settings: ImageSimulatorSettings, action: string): boolean {
  return settings.failTasks === true || (Array.isArray(settings.failTasks) && settings.failTasks.includes(action));
}
