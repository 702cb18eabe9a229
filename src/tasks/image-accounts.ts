/**
 * Upstream accounts of image channels. A channel declares them in
 * `settings.accounts` (`instanceId`, `channelId`, `modes`, `remark`, `remix`,
 * `remixAutoConsidered`, optional `enabled`; read by
 * src/upstreams/accounts-setting.ts); a channel that declares none is one
 * account named after the channel. A request's `accountFilter` picks among
 * them.
 */
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

/** The account a task was given (stored on the task as JSON by the submission). */
export function imageAccountOf(task: TaskRecord): ImageAccount {
  return task.account as unknown as ImageAccount;
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
