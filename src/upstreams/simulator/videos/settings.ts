/** The video simulator's knobs, read from `channel.settings`; all optional. */
import { GatewayError } from '../../../core/errors.js';
import type { Channel } from '../../../core/channel.js';

export interface VideoSimulatorSettings {
  /** How long a task takes from start to finish (seconds; fractions allowed). */
  taskSeconds: number;
  /** `true`: every task fails; a list: tasks whose model or action (`GENERATE`, `REMIX`) is listed fail. */
  failTasks: boolean | string[];
  /** Long side of the encoded video, in pixels (the reported size stays the requested one). */
  videoSize: number;
  /** Frames per second when the request names none. */
  fps: number;
}

function invalid(channel: Channel, key: string, rule: string): GatewayError {
  return new GatewayError('internal', `simulator channel ${channel.name}: setting ${key} must be ${rule}`);
}

function readNumber(channel: Channel, key: string, min: number, max: number): number | undefined {
  const raw = channel.settings[key];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid(channel, key, `a number from ${min} to ${max}`);
  return value;
}

export function readVideoSimulatorSettings(channel: Channel): VideoSimulatorSettings {
  const failTasks = channel.settings.failTasks ?? false;
  if (typeof failTasks !== 'boolean' && !(Array.isArray(failTasks) && failTasks.every((item) => typeof item === 'string'))) {
    throw invalid(channel, 'failTasks', 'true, false or a list of models or actions');
  }
  return {
    taskSeconds: readNumber(channel, 'taskSeconds', 0, 3600) ?? 5,
    failTasks: failTasks as boolean | string[],
    videoSize: Math.round(readNumber(channel, 'videoSize', 32, 1920) ?? 320),
    fps: Math.round(readNumber(channel, 'fps', 1, 60) ?? 24),
  };
}

export function failsTask(settings: VideoSimulatorSettings, model: string, action: string): boolean {
  return settings.failTasks === true || (Array.isArray(settings.failTasks) && (settings.failTasks.includes(model) || settings.failTasks.includes(action)));
}
