/**
 * The image simulator's knobs, from the simulator channel's typed settings
 * (their rules and defaults are the schema's, ../settings.ts).
 */
import { simulatorSettingsOf } from '../settings.js';
import type { SettingsHolder } from '../../typed-settings.js';

export interface ImageSimulatorSettings {
  /** How long a task takes from start to finish (seconds; fractions allowed). */
  taskSeconds: number;
  /** `true`: every task fails; a list of actions (e.g. ["UPSCALE"]): tasks of those actions fail. */
  failTasks: boolean | readonly string[];
  /** Tasks an account runs at once (whole tasks); the rest wait in NOT_START and the submission answers "queued". Unset: no limit. */
  concurrency?: number;
  /** Long side of the painted images, in whole pixels. */
  imageSize: number;
}

export function readImageSimulatorSettings(channel: SettingsHolder): ImageSimulatorSettings {
  const { taskSeconds, failTasks, concurrency, imageSize } = simulatorSettingsOf(channel);
  return { taskSeconds, failTasks, concurrency: concurrency === undefined ? undefined : Math.floor(concurrency), imageSize: Math.round(imageSize) };
}

export function failsAction(settings: ImageSimulatorSettings, action: string): boolean {
  return settings.failTasks === true || (Array.isArray(settings.failTasks) && settings.failTasks.includes(action));
}
