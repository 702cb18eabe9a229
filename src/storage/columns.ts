/**
 * Conversions between column values and record fields that both engines need:
 * PostgreSQL may hand back aggregates as strings, SQLite has no booleans, and
 * lists and maps are kept as JSON text.
 */
import { GatewayError } from '../core/errors.js';

export const toJson = (value: unknown): string => JSON.stringify(value);

export function fromJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === null || value === undefined) return 0;
  return Number(value);
}

export function toNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: unknown): boolean => toNumber(value) !== 0;

/** Unique-constraint violations from either engine become a 409 that names what clashed. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function conflict(what: string, cause: unknown): GatewayError {
  return new GatewayError('invalid_request', `${what} already exists`, { status: 409, cause });
}

/**
 * Whether an error says the database cannot be reached or cannot write at
 * all (connection refused or lost, server shutting down, disk full, file
 * locked), as opposed to refusing one statement's data. A batch that fails
 * this way is not worth splitting: every part would fail the same way.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // Node socket errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT…).
    if (/^E[A-Z]+$/.test(code)) return true;
    // PostgreSQL: connection exception, insufficient resources, operator intervention, system error.
    if (/^(08|53|57|58)[0-9A-Z]{3}$/.test(code)) return true;
    return /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|NOTADB|CORRUPT)/.test(code);
  }
  const message = error instanceof Error ? error.message : '';
  // node-postgres raises these without a code.
  return /connection|terminated|not queryable|timeout/i.test(message);
}
