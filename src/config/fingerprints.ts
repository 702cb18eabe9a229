/**
 * What the config file's apply remembers of a declared value: a short hash of
 * its canonical JSON, which identifies the value without keeping it
 * (credentials among them), and the equality that goes with it.
 */
import { createHash } from 'node:crypto';

export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 16);
}

/** JSON with object keys sorted, so equal values read the same whatever order they were written in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Structural equality for JSON-like values, independent of object key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}
