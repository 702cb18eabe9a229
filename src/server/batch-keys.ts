/**
 * A batch's key as the store has it now, read again after a few seconds: a
 * batch runs (or bills) thousands of lines of one key, and a key disabled
 * or deleted meanwhile must answer its next lines as its requests would.
 */
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';

const KEY_TTL_MS = 5_000;
/** Keys remembered at most; batches of this many keys at once are not expected. */
const MAX_KEYS = 1_000;

export function batchKeyReader(ctx: Pick<AppContext, 'store'>): (id: string) => Promise<ClientKey | undefined> {
  const keys = new Map<string, { key: ClientKey | undefined; at: number }>();
  return async (id) => {
    const cached = keys.get(id);
    if (cached && Date.now() - cached.at < KEY_TTL_MS) return cached.key;
    const record = await ctx.store.keys.get(id);
    const key = record ? { record } : undefined;
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(id, { key, at: Date.now() });
    return key;
  };
}
