/**
 * The generated admin key: only its hash is stored (in the settings table),
 * so a lost key cannot be shown again, only replaced. `rotateAdminKey` is what
 * `switchyard admin-key rotate` runs against the gateway's storage.
 */
import { generateKeySecret, hashKey } from '../http/auth.js';
import type { Store } from '../storage/types.js';

export const ADMIN_KEY_HASH_SETTING = 'admin_key_hash';

/** Stores the hash of a new generated admin key and returns the key; the old one stops working at the next gateway start. */
export async function rotateAdminKey(store: Store): Promise<string> {
  const secret = generateKeySecret('sk-admin-');
  await store.settings.set(ADMIN_KEY_HASH_SETTING, hashKey(secret));
  return secret;
}
