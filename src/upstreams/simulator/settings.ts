/** The simulator's knobs, read from `channel.settings`; all optional. */
import { GatewayError } from '../../core/errors.js';
import type { Channel } from '../../core/channel.js';

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
  if (failStatus !== undefined && !(Number.isInteger(failStatus) && failStatus >= 400 && failStatus <= 599))
    throw invalidSetting(channel, 'failStatus', 'an HTTP error status (400-599)');
  const failAfterChunks = readCount(channel, 'failAfterChunks');
  return {
    latencyMs: readCount(channel, 'latencyMs') ?? 0,
    tokenDelayMs: readCount(channel, 'tokenDelayMs') ?? 0,
    failStatus,
    failAfterChunks: failAfterChunks === undefined ? undefined : Math.floor(failAfterChunks),
  };
}
