import { randomHex } from '../core/random.js';

/** The id every response carries in `x-request-id` (and `request-id`), quoted in logs. */
export function newRequestId(): string {
  return `req_${randomHex(12)}`;
}
