/**
 * Random identifiers from a pooled buffer: one `randomBytes` call serves
 * hundreds of ids, which matters on the request path (each call into the
 * crypto binding costs several microseconds).
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

function nextByte(): number {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++];
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters, each equally likely (bytes ≥ 248 are skipped). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextByte();
    if (byte < 248) out += base62[byte % 62];
  }
  return out;
}

/**
 * `value` (a non-negative integer below 62^width) as `width` base62 digits,
 * zero-padded: the alphabet is in ASCII order, so the strings sort as the numbers do.
 */
export function base62Fixed(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = base62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** `bytes` random bytes as lower-case hex: one native slice of the pool, not a string built per digit. */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) return randomBytes(bytes).toString('hex');
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return out;
}
