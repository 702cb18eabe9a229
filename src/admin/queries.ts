/**
 * The admin API's query strings as schemas: parsed (and refused with a 400
 * naming the parameter) before any database work, and rendered into the
 * OpenAPI document from the same definitions. Times are epoch milliseconds or
 * ISO 8601 date-times; list endpoints page with an opaque cursor.
 */
import { z } from 'zod';
import { GatewayError } from '../core/errors.js';
import { hasControlCharacter } from '../core/model-name.js';
import type { PagePosition } from '../storage/paging.js';
import { parseInput } from './service.js';
import { builtOnce } from '../core/built-once.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Chart widths the default step picks from, so a range gets at most about 150 points. */
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 6 * HOUR, DAY];
const MAX_POINTS = 2000;

export const time = builtOnce(() =>
  z
    .string()
    .describe('Epoch milliseconds or an ISO 8601 date-time.')
    .transform((text, context) => {
      const value = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
      if (!Number.isFinite(value)) {
        context.addIssue({ code: 'custom', message: 'must be epoch milliseconds or an ISO 8601 date-time' });
        return z.NEVER;
      }
      return value;
    }),
);

export const limit = builtOnce(() => z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1).max(1000)).describe('Rows per page, 1-1000 (default 100).'));

export const cursor = builtOnce(() =>
  z
    .string()
    .describe('The `nextCursor` of the previous page.')
    .transform((text, context) => {
      const position = decodeCursor(text);
      if (!position) {
        context.addIssue({ code: 'custom', message: 'is not a cursor this API gave out' });
        return z.NEVER;
      }
      return position;
    }),
);

/** `429`, a class such as `5xx`, or `error` (400-599). */
const status = builtOnce(() =>
  z
    .string()
    .describe('One status (`429`), a class (`2xx`, `4xx`, `5xx`) or `error` (400-599).')
    .transform((text, context) => {
      if (/^[1-5]\d\d$/.test(text)) return { from: Number(text), to: Number(text) };
      if (/^[1-5]xx$/.test(text)) return { from: Number(text[0]) * 100, to: Number(text[0]) * 100 + 99 };
      if (text === 'error') return { from: 400, to: 599 };
      context.addIssue({ code: 'custom', message: 'must be a status (429), a class (4xx) or error' });
      return z.NEVER;
    }),
);

// Names and ids never hold control characters (and PostgreSQL cannot compare a NUL byte).
export const text = (what: string) =>
  z
    .string()
    .min(1)
    .max(256)
    .refine((value) => !hasControlCharacter(value), 'must not contain control characters')
    .describe(what);

export const logListQuery = builtOnce(() =>
  z
    .object({
      since: time().optional().describe('Rows created at or after this time.'),
      until: time().optional().describe('Rows created before this time.'),
      before: time().optional().describe('Rows created before this time (older paging; `cursor` is exact).'),
      keyId: text('Only this key’s requests.').optional(),
      teamId: text('Only requests made with a key of this team (as the key belonged then).').optional(),
      userId: text('Only requests made with a key of this user (as the key belonged then).').optional(),
      model: text('Only this client model name.').optional(),
      channelId: text('Only requests this channel answered.').optional(),
      family: text(
        'Only this family: messages, generate, responses, chat-completions, completions, embeddings, rerank, moderations, image-generations, audio-speech, audio-transcriptions, audio-translations, images, videos, count-tokens….',
      ).optional(),
      status: status().optional(),
      limit: limit().optional(),
      cursor: cursor().optional(),
    })
    .strict(),
);

export const usageQuery = builtOnce(() =>
  z
    .object({
      keyId: text('Only this key.').optional(),
      teamId: text('Only this team’s keys’ requests.').optional(),
      userId: text('Only this user’s keys’ requests.').optional(),
      since: time().optional(),
      until: time().optional(),
    })
    .strict(),
);

export const seriesQuery = builtOnce(() =>
  z
    .object({
      since: time().optional().describe('Start (default: 24 hours before `until`).'),
      until: time().optional().describe('End, exclusive (default: now).'),
      step: z
        .string()
        .regex(/^\d+$/, 'must be a whole number of milliseconds')
        .transform(Number)
        .pipe(z.number().int().min(MINUTE).multipleOf(MINUTE, 'must be a whole number of minutes'))
        .optional()
        .describe('Bucket width in ms, whole minutes (default: about 100 points over the range).'),
      by: z
        .enum(['none', 'family', 'model', 'channel', 'key', 'team', 'user'])
        .optional()
        .describe('One series per family, model, channel, key, team or user (default: `none`, one series); requests of no team or user are the group `` (labelled `none`).'),
      top: z
        .string()
        .regex(/^\d+$/, 'must be a whole number')
        .transform(Number)
        .pipe(z.number().int().min(1).max(50))
        .optional()
        .describe('With `by`: the busiest groups that get a series each, 1-50 (default 10); the rest are summed into one series, `(other)`.'),
      family: text('Only this family.').optional(),
      model: text('Only this client model name.').optional(),
      channelId: text('Only this channel.').optional(),
      keyId: text('Only this key.').optional(),
      teamId: text('Only this team’s keys.').optional(),
      userId: text('Only this user’s keys.').optional(),
    })
    .strict()
    .transform((query, context) => {
      const until = query.until ?? Date.now();
      const since = query.since ?? until - DAY;
      if (since >= until) {
        context.addIssue({ code: 'custom', path: ['since'], message: 'must be before until' });
        return z.NEVER;
      }
      const step = query.step ?? STEPS.find((width) => (until - since) / width <= 150) ?? DAY;
      if ((until - since) / step > MAX_POINTS) {
        context.addIssue({ code: 'custom', path: ['step'], message: `gives more than ${MAX_POINTS} points over the range; widen it` });
        return z.NEVER;
      }
      return { ...query, since, until, step, by: query.by ?? 'none', top: query.top ?? 10 };
    }),
);

export const taskListQuery = builtOnce(() =>
  z
    .object({
      family: z.enum(['images', 'videos']).optional().describe('Only image or video tasks.'),
      status: text('Only tasks in this state (images: NOT_START, SUBMITTED, IN_PROGRESS, MODAL, SUCCESS, FAILURE; videos: queued, in_progress, completed, failed…).').optional(),
      keyId: text('Only this key’s tasks.').optional(),
      teamId: text('Only tasks made with a key of this team (as the key belonged then).').optional(),
      limit: limit().optional(),
      cursor: cursor().optional(),
    })
    .strict(),
);

export const priceQuoteQuery = builtOnce(() =>
  z
    .object({
      model: text('The model a client asks for.'),
      upstreamModel: text('The name the channel sends upstream, when it maps the model (the catalogue is asked for it too).').optional(),
    })
    .strict(),
);

export const channelTestBody = builtOnce(() =>
  z
    .object({
      model: z.string().min(1).optional().describe('The model to ask (default: the channel’s first exact model name, or its first mapped one).'),
    })
    .strict(),
);

/** Each parameter once (`?keyId=a&keyId=b` is a 400, not an array handed to the database), then the schema's rules. */
export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new GatewayError('invalid_request', `${name}: give this query parameter once`, { param: name });
  }
  return parseInput(schema as z.ZodType<z.output<T>>, query ?? {});
}

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

function decodeCursor(text: string): PagePosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // Not base64 JSON: answered as a bad cursor below.
  }
  return undefined;
}

/** A page and where the next one starts (null on the last page). */
export function page<T extends PagePosition>(rows: T[], limit: number): { data: T[]; hasMore: boolean; nextCursor: string | null } {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { data, hasMore, nextCursor: hasMore ? encodeCursor(data[data.length - 1]) : null };
}
