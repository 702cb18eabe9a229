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
