/**
 * The video simulator's knobs, from the simulator channel's typed settings
 * (their rules and defaults are the schema's, ../settings.ts).
 */
import { simulatorSettingsOf } from '../settings.js';
import type { SettingsHolder } from '../../typed-settings.js';

export interface VideoSimulatorSettings {
  /** How long a task takes from start to finish (seconds; fractions allowed). */
  taskSeconds: number;
  /** `true`: every task fails; a list: tasks whose model or action (`GENERATE`, `REMIX`) is listed fail. */
  failTasks: boolean | readonly string[];
  /** Long side of the encoded video, in whole pixels (the reported size stays the requested one). */
  videoSize: number;
  /** Whole frames per second when the request names none. */
  fps: number;
}

export function readVideoSimulatorSettings(channel: SettingsHolder): VideoSimulatorSettings {
  const { taskSeconds, failTasks, videoSize, fps } = simulatorSettingsOf(channel);
  return { taskSeconds, failTasks, videoSize: Math.round(videoSize), fps: Math.round(fps) };
}

export function failsTask(settings: VideoSimulatorSettings, model: string, action: string): boolean {
  return settings.failTasks === true || (Array.isArray(settings.failTasks) && (settings.failTasks.includes(model) || settings.failTasks.includes(action)));
}
