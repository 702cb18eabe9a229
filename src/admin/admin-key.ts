/**
 * The generated admin key: only its hash is stored (in the settings table),
 * so a lost key cannot be shown again, only replaced. `rotateAdminKey` is what
 * `switchyard admin-key rotate` runs against the gateway's storage.
 */
import { generateKeySecret, hashKey } from '../http/auth.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';

export const ADMIN_KEY_HASH_SETTING = 'admin_key_hash';

/** Stores the hash of a new generated admin key and returns the key; the old one stops working at the next gateway start. */
export async function rotateAdminKey(store: Store, actor: AuditActor): Promise<string> {
  const secret = generateKeySecret('sk-admin-');
  await store.transaction(async (tx) => {
    await tx.settings.set(ADMIN_KEY_HASH_SETTING, hashKey(secret));
    await tx.audit.record(actor, 'admin-key.rotate', 'admin-key', null, { id: ADMIN_KEY_HASH_SETTING, facts: { takesEffect: 'at the next gateway start' } });
  });
  return secret;
}
