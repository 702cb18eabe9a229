import { base62Fixed, randomBase62 } from '../core/random.js';

/** A short random id such as `key_3fZ…`: a prefix and 20 base62 characters (~119 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/**
 * An id that sorts by creation time, such as `log_…`: a prefix, 8 base62
 * characters of the epoch millisecond, then 12 random ones (~71 bits). Rows
 * written in time order (the request log) then append to the end of the
 * primary-key index instead of landing on a random page of it: SQLite writes
 * and commits far fewer pages per batch (bench/README.md).
 */
export function newTimeOrderedId(prefix: string, now = Date.now()): string {
  return `${prefix}_${base62Fixed(now, 8)}${randomBase62(12)}`;
}

/**
 * Whether a string can be an id this gateway stored (keys, channels, logs,
 * tasks, responses and their items). Lookups check it before querying, so a
 * hostile id (a NUL byte PostgreSQL refuses, kilobytes of text) is simply
 * "not found" on every engine instead of a database error.
 */
export function isWellFormedId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(id);
}

/**
 * An id whose order is its creation time under any collation (PostgreSQL's
 * text order need not be byte order): 12 lower-case hex digits of the epoch
 * millisecond, then `randomLength` base62 characters. Files and batches page
 * by id alone.
 */
export function newSortableId(prefix: string, randomLength: number, now = Date.now()): string {
  return `${prefix}${now.toString(16).padStart(12, '0')}${randomBase62(randomLength)}`;
}
