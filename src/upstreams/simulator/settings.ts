/** The simulator's knobs, read from `channel.settings`; all optional. */
import { GatewayError } from '../../core/errors.js';
import type { Channel } from '../../core/channel.js';
import { accountsSetting } from '../accounts-setting.js';
import { failTasksSetting, numberLike } from '../settings-schema.js';

export interface SimulatorSettings {
  /** Wait before the answer starts (ms). */
  latencyMs: number;
  /** Wait between streamed chunks (ms). */
  tokenDelayMs: number;
  /** Every call fails with this upstream HTTP status. */
  failStatus?: number;
  /** Streams break after this many delta chunks. */
  failAfterChunks?: number;
}

function invalidSetting(channel: Channel, key: string, rule: string): GatewayError {
  return new GatewayError('internal', `simulator channel ${channel.name}: setting ${key} must be ${rule}`);
}

function readCount(channel: Channel, key: string): number | undefined {
  const raw = channel.settings[key];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalidSetting(channel, key, 'a number >= 0');
  return value;
}

export function readSimulatorSettings(channel: Channel): SimulatorSettings {
  const failStatus = readCount(channel, 'failStatus');
  if (failStatus !== undefined && !(Number.isInteger(failStatus) && failStatus >= 400 && failStatus <= 599)) throw invalidSetting(channel, 'failStatus', 'an HTTP error status (400-599)');
  const failAfterChunks = readCount(channel, 'failAfterChunks');
  return {
    latencyMs: readCount(channel, 'latencyMs') ?? 0,
    tokenDelayMs: readCount(channel, 'tokenDelayMs') ?? 0,
    failStatus,
    failAfterChunks: failAfterChunks === undefined ? undefined : Math.floor(failAfterChunks),
  };
}

/**
 * Every key of a simulator channel: its chat knobs, and those of its image
 * and video task simulators (src/upstreams/simulator/{images,videos}).
 */
export const simulatorSettingsShape = {
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
  accounts: accountsSetting,
} as const;
