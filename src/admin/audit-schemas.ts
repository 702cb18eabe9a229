/** The audit log through the admin API: the list's query and what an entry looks like. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { cursor, limit, text, time } from './queries.js';
import { ms, pageOf } from './schema-parts.js';

const ACTOR = /^(admin-key|cli|config-file|user|token|sso)(?::(.+))?$/;

export const auditListQuery = builtOnce(() =>
  z
    .object({
      actor: text('Only changes by this actor: a kind (`admin-key`, `cli`, `config-file`, `user`, `token`, `sso`), or `kind:id` (`cli:alice`).')
        .regex(ACTOR, 'must be an actor kind (admin-key, cli, config-file, user, token, sso), optionally followed by :id')
        .optional(),
      action: text('Only actions starting with this: `key.` (every key change), `channel.update`.').optional(),
      targetKind: text('Only changes to this kind of target: `key`, `channel`, `price`, `admin-key`, `secret-key`.').optional(),
      targetId: text('Only changes to this target (a key or channel id, a price’s model).').optional(),
      since: time().optional().describe('Entries at or after this time.'),
      until: time().optional().describe('Entries before this time.'),
      limit: limit().optional(),
      cursor: cursor().optional(),
    })
    .strict()
    .transform(({ actor, action, ...rest }) => {
      const [, actorKind, actorId] = actor === undefined ? [] : (ACTOR.exec(actor) ?? []);
      return { ...rest, actorKind, actorId, actionPrefix: action };
    }),
);

const view = builtOnce(() => z.record(z.string(), z.unknown()).nullable());

export const auditEntrySchema = builtOnce(() =>
  z.object({
    id: z.string(),
    at: ms(),
    actorKind: z.string().describe('`admin-key`, `cli`, `config-file` (later `user`, `token`).'),
    actorId: z.string().nullable().describe('The OS user for `cli`, the file for `config-file`; null for the admin key.'),
    actorName: z.string().nullable(),
    action: z.string().describe('`<target kind>.<verb>`: `key.create`, `key.update`, `key.disable`, `channel.delete`, `price.set`, `admin-key.rotate`….'),
    targetKind: z.string(),
    targetId: z.string().nullable(),
    targetName: z.string().nullable(),
    before: view().describe('The target’s public view before the change (secrets never included); null when it did not exist.'),
    after: view().describe('The target’s public view after the change; null when it was deleted. A channel’s shows `apiKeyCount` and, on an update, `apiKeysReplaced`.'),
    requestId: z.string().nullable().describe('The admin API request that made the change.'),
    clientIp: z.string().nullable(),
  }),
);

export const auditPageSchema = builtOnce(() => pageOf(auditEntrySchema()));
