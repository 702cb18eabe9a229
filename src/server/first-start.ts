import { ADMIN_KEY_HASH_SETTING } from '../admin/admin-key.js';
import type { GatewaySettings } from '../config/env.js';
import { GatewayError } from '../core/errors.js';
import { generateKeySecret, hashKey } from '../http/auth.js';
import { withExclusiveLock } from '../storage/exclusive-lock.js';
import type { Store } from '../storage/types.js';

/** Instances starting together make the first-start credentials one at a time (see exclusive-lock.ts). */
const BOOTSTRAP_LOCK = 'switchyard.bootstrap';

/** The admin key's hash, and the secrets made at this start (printed once by the caller). */
export async function firstStartCredentials(store: Store, settings: GatewaySettings): Promise<{ admin: { hash: string; generated?: string }; clientKey: string | undefined }> {
  return withExclusiveLock(store, BOOTSTRAP_LOCK, async () => ({
    admin: await resolveAdminKeyHash(store, settings),
    clientKey: await ensureFirstClientKey(store),
  }));
}

/**
 * First-start credentials, each made once however many instances (or a CLI)
 * start together: the one that stores it first prints it; the others read
 * the stored one and print nothing, so no printed key fails to work.
 */
async function resolveAdminKeyHash(store: Store, settings: GatewaySettings): Promise<{ hash: string; generated?: string }> {
  if (settings.adminKey) return { hash: hashKey(settings.adminKey) };
  const stored = await store.settings.get(ADMIN_KEY_HASH_SETTING);
  if (stored) return { hash: stored };
  const generated = generateKeySecret('sk-admin-');
  const hash = await store.settings.setIfAbsent(ADMIN_KEY_HASH_SETTING, hashKey(generated));
  return hash === hashKey(generated) ? { hash, generated } : { hash };
}

async function ensureFirstClientKey(store: Store): Promise<string | undefined> {
  if ((await store.keys.count()) > 0) return undefined;
  const secret = generateKeySecret();
  try {
    await store.keys.create({ name: 'default', keyHash: hashKey(secret), keyPrefix: secret.slice(0, 8) });
  } catch (error) {
    // Made by another instance meanwhile: that key stands.
    if (error instanceof GatewayError && error.status === 409) return undefined;
    throw error;
  }
  return secret;
}
