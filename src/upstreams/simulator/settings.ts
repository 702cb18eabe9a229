/**
 * Every key of a simulator channel: its chat knobs, and those of its image
 * and video task simulators (src/upstreams/simulator/{images,videos}), each
 * with its rule and default; all optional.
 */
import { builtOnce } from '../../core/built-once.js';
import { accountsSetting } from '../accounts-setting.js';
import { failTasksSetting, numberLike } from '../settings-schema.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

export const simulatorSettingsShape = builtOnce(
  () =>
    ({
      latencyMs: numberLike({ min: 0, description: 'Wait before the answer starts, in ms.', default: 0 }),
      tokenDelayMs: numberLike({ min: 0, description: 'Wait between streamed chunks, in ms.', default: 0 }),
      failStatus: numberLike({ min: 400, max: 599, integer: true, rule: 'an HTTP error status (400-599)', description: 'Every chat call fails with this upstream HTTP status (400-599).' }),
      failAfterChunks: numberLike({ min: 0, description: 'Streams break after this many delta chunks.' }),
      taskSeconds: numberLike({ min: 0, max: 3600, description: 'How long an image or video task takes, in seconds (fractions allowed).', default: 5 }),
      failTasks: failTasksSetting('true, false or a list of models or actions', '`true`: every task fails; a list: tasks whose model or action (e.g. `UPSCALE`, `REMIX`) is listed fail.'),
      concurrency: numberLike({ min: 1, description: 'Image tasks an account runs at once; the rest wait and the submission answers "queued". Unset: no limit.' }),
      imageSize: numberLike({ min: 16, max: 4096, description: 'Long side of the painted images, in pixels.', default: 512 }),
      videoSize: numberLike({ min: 32, max: 1920, description: 'Long side of the encoded video, in pixels.', default: 320 }),
      fps: numberLike({ min: 1, max: 60, description: 'Video frames per second when the request names none.', default: 24 }),
      accounts: accountsSetting(),
    }) as const,
);

export const simulatorSettings = typedChannelSettings('simulator', simulatorSettingsShape);

export type SimulatorChannelSettings = TypedSettingsOf<typeof simulatorSettingsShape>;

/** A simulator channel's settings, typed (see typed-settings.ts). */
export const simulatorSettingsOf = (channel: SettingsHolder): SimulatorChannelSettings => simulatorSettings.of(channel);

/** The chat simulator's knobs. */
export interface SimulatorSettings {
  /** Wait before the answer starts (ms). */
  latencyMs: number;
  /** Wait between streamed chunks (ms). */
  tokenDelayMs: number;
  /** Every call fails with this upstream HTTP status. */
  failStatus?: number;
  /** Streams break after this many delta chunks (whole chunks). */
  failAfterChunks?: number;
}

export function readSimulatorSettings(channel: SettingsHolder): SimulatorSettings {
  const { latencyMs, tokenDelayMs, failStatus, failAfterChunks } = simulatorSettingsOf(channel);
  return { latencyMs, tokenDelayMs, failStatus, failAfterChunks: failAfterChunks === undefined ? undefined : Math.floor(failAfterChunks) };
}
