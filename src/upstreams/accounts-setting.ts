/**
 * The `accounts` setting of image channels (simulator, ig-proxy): the
 * upstream accounts a request's `accountFilter` picks among
 * (src/tasks/image-accounts.ts matches them). Fields other than `instanceId`
 * and `modes` were always read leniently (a wrong type reads as the field's
 * default), so the schema checks only those two and reads the rest of an
 * entry as the account it describes.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import type { AccountMode, ImageAccount } from '../tasks/image-accounts.js';
import { typedChannelSettings, type SettingsHolder } from './typed-settings.js';

const ALL_MODES: AccountMode[] = ['RELAX', 'FAST', 'TURBO'];

const account = () =>
  z
    .looseObject(
      {
        instanceId: z.string({ error: 'needs an instanceId' }).min(1, 'needs an instanceId').describe('The upstream account id.'),
        channelId: z.unknown().optional().describe('The upstream channel id (a string; default the instanceId).'),
        modes: z
          .array(z.enum(['RELAX', 'FAST', 'TURBO'], { error: 'modes must list RELAX, FAST or TURBO' }), { error: 'modes must list RELAX, FAST or TURBO' })
          .nullish()
          .describe('Speeds the account offers. Default all three.'),
        remark: z.unknown().optional().describe('Free text an accountFilter can match (a string).'),
        remix: z.unknown().optional().describe('`true`: the account has remix mode on.'),
        remixAutoConsidered: z.unknown().optional().describe('`true`: remix is considered automatically.'),
        enabled: z.unknown().optional().describe('`false` leaves the account out.'),
      },
      { error: 'must be an object' },
    )
    .transform((entry): ImageAccount & { enabled: boolean } => ({
      instanceId: entry.instanceId,
      channelId: typeof entry.channelId === 'string' ? entry.channelId : entry.instanceId,
      modes: entry.modes ?? ALL_MODES,
      remark: typeof entry.remark === 'string' ? entry.remark : '',
      remix: entry.remix === true,
      remixAutoConsidered: entry.remixAutoConsidered === true,
      enabled: entry.enabled !== false,
    }));

/** Read as the enabled accounts; unset (or null) stays unset: the channel is one account named after it. */
export const accountsSetting = builtOnce(() =>
  z
    .array(account(), { error: 'must be a list' })
    .nullish()
    .transform((list) => list?.filter((entry) => entry.enabled).map(({ enabled: _enabled, ...entry }): ImageAccount => entry))
    .describe('The upstream accounts behind this image channel. Unset: one account named after the channel.'),
);

/** The settings key alone, read from a simulator or ig-proxy channel's typed settings (both declare it with this schema). */
const accountsOnly = typedChannelSettings('image', () => ({ accounts: accountsSetting() }));

/** The accounts a channel offers: those it declares (enabled ones), else one account named after it. */
export function accountsOf(channel: SettingsHolder): ImageAccount[] {
  const declared = accountsOnly.of(channel).accounts;
  return declared ? [...declared] : [{ instanceId: channel.name, channelId: channel.name, modes: ALL_MODES, remark: '', remix: false, remixAutoConsidered: false }];
}

/** Whether the channel declares its accounts (the gateway then picks one for each task). */
export function declaresAccounts(channel: SettingsHolder): boolean {
  return accountsOnly.of(channel).accounts !== undefined;
}
