/** Pieces the admin API's answer schemas share: times, counts, a page of rows. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';

export const ms = builtOnce(() => z.number().describe('Epoch milliseconds.'));
export const nullableMs = builtOnce(() => ms().nullable());
export const count = builtOnce(() => z.number().int().nonnegative());

export const pageOf = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), hasMore: z.boolean(), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page.') });
