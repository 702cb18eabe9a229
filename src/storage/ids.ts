import { randomBase62 } from '../core/random.js';

/** A short random id such as `key_3fZ…`: a prefix and 20 base62 characters (~119 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
