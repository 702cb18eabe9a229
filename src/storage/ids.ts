import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const idLength = 20;

/**
 * A short random id such as `key_3fZ…`: 20 base62 characters (~119 bits).
 * Bytes at or above 248 are dropped so every character is equally likely.
 */
export function newId(prefix: string): string {
  let out = prefix + '_';
  let remaining = idLength;
  while (remaining > 0) {
    const bytes = randomBytes(remaining + 8);
    for (let i = 0; i < bytes.length && remaining > 0; i++) {
      const byte = bytes[i];
      if (byte >= 248) continue;
      out += alphabet[byte % 62];
      remaining--;
    }
  }
  return out;
}
