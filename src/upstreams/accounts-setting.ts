/**
 * The `accounts` setting of image channels (simulator, ig-proxy): the
 * upstream accounts a request's `accountFilter` picks among
 * (src/tasks/image-accounts.ts reads it). Fields other than `instanceId` and
 * `modes` were always read leniently (a wrong type falls back), so the schema
 * checks only those two and lets the rest of an entry through.
 */
import { z } from 'zod';

const account = z.looseObject(
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
);

export const accountsSetting = z.array(account, { error: 'must be a list' }).nullish().describe('The upstream accounts behind this image channel. Unset: one account named after the channel.');
