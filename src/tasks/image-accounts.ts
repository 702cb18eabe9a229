/**
 * Upstream accounts of image channels. A channel declares them in
 * `settings.accounts` (`instanceId`, `channelId`, `modes`, `remark`, `remix`,
 * `remixAutoConsidered`, optional `enabled`); a channel that declares none is
 * one account named after the channel. A request's `accountFilter` picks
 * among them.
 */
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../core/channel.js';
import type { TaskRecord } from './types.js';

export type AccountMode = 'RELAX' | 'FAST' | 'TURBO';

/** What a request may ask of the account that runs it (the family's `accountFilter`). */
export interface AccountFilter {
  channelId?: string;
  instanceId?: string;
  modes?: AccountMode[];
  remark?: string;
  remix?: boolean;
  remixAutoConsidered?: boolean;
}

export interface ImageAccount {
  instanceId: string;
  channelId: string;
  modes: AccountMode[];
  remark: string;
  remix: boolean;
  remixAutoConsidered: boolean;
}

const MODES = new Set<AccountMode>(['RELAX', 'FAST', 'TURBO']);

function invalid(channel: Channel, index: number, rule: string): GatewayError {
  return new GatewayError('internal', `image channel ${channel.name}: settings.accounts[${index}] ${rule}`);
}

function readAccount(channel: Channel, raw: unknown, index: number): ImageAccount & { enabled: boolean } {
  if (typeof raw !== 'object' || raw === null) throw invalid(channel, index, 'must be an object');
  const entry = raw as Record<string, unknown>;
  const instanceId = entry.instanceId;
  if (typeof instanceId !== 'string' || instanceId === '') throw invalid(channel, index, 'needs an instanceId');
  const modes = entry.modes ?? ['RELAX', 'FAST', 'TURBO'];
  if (!Array.isArray(modes) || !modes.every((mode) => MODES.has(mode as AccountMode))) {
    throw invalid(channel, index, 'modes must list RELAX, FAST or TURBO');
  }
  return {
    instanceId,
    channelId: typeof entry.channelId === 'string' ? entry.channelId : instanceId,
    modes: modes as AccountMode[],
    remark: typeof entry.remark === 'string' ? entry.remark : '',
    remix: entry.remix === true,
    remixAutoConsidered: entry.remixAutoConsidered === true,
    enabled: entry.enabled !== false,
  };
}

/** The account a task was given (stored on the task as JSON by the submission). */
export function imageAccountOf(task: TaskRecord): ImageAccount {
  return task.account as unknown as ImageAccount;
}

export function accountsOf(channel: Channel): ImageAccount[] {
  const declared = channel.settings.accounts;
  if (declared === undefined || declared === null) {
    return [{ instanceId: channel.name, channelId: channel.name, modes: ['RELAX', 'FAST', 'TURBO'], remark: '', remix: false, remixAutoConsidered: false }];
  }
  if (!Array.isArray(declared)) throw new GatewayError('internal', `image channel ${channel.name}: settings.accounts must be a list`);
  return declared
    .map((raw, index) => readAccount(channel, raw, index))
    .filter((account) => account.enabled)
    .map(({ enabled: _enabled, ...account }) => account);
}

/** Every condition the filter sets must hold; `modes` asks for an account offering at least one of them. */
export function matchesFilter(account: ImageAccount, filter: AccountFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.instanceId !== undefined && filter.instanceId !== account.instanceId) return false;
  if (filter.channelId !== undefined && filter.channelId !== account.channelId) return false;
  if (filter.remark !== undefined && !account.remark.includes(filter.remark)) return false;
  if (filter.modes !== undefined && filter.modes.length > 0 && !filter.modes.some((mode) => account.modes.includes(mode))) return false;
  if (filter.remix !== undefined && filter.remix !== account.remix) return false;
  if (filter.remixAutoConsidered !== undefined && filter.remixAutoConsidered !== account.remixAutoConsidered) return false;
  return true;
}
