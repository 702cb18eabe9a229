/**
 * Ids the gateway mints for the Responses dialect: the response itself and
 * every output or stored input item, each with the prefix OpenAI clients know
 * (`resp_`, `msg_`, `fc_`, `rs_`…) and 48 random hex characters.
 */
import { randomHex } from '../../core/random.js';

export type IdPrefix = 'resp' | 'msg' | 'fc' | 'fco' | 'ctc' | 'ctco' | 'rs' | 'cuo' | 'item';

export function newResponsesId(prefix: IdPrefix): string {
  return `${prefix}_${randomHex(24)}`;
}
