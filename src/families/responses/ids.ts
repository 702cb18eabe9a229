/**
 * Ids the gateway mints for the Responses dialect: the response itself and
 * every output or stored input item, each with the prefix OpenAI clients know
 * (`resp_`, `msg_`, `fc_`, `rs_`…) and 48 hex characters, random but for a response id's first 12.
 */
import { randomHex } from '../../core/random.js';

export type IdPrefix = 'resp' | 'msg' | 'fc' | 'fco' | 'ctc' | 'ctco' | 'rs' | 'cuo' | 'cmp' | 'item';

export function newResponsesId(prefix: IdPrefix): string {
  // A response's id leads with the millisecond (12 hex digits, then 36 random ones), so stored
  // responses append to their table's primary-key index instead of landing on random pages of it.
  if (prefix === 'resp') return `resp_${Date.now().toString(16).padStart(12, '0')}${randomHex(18)}`;
  return `${prefix}_${randomHex(24)}`;
}
