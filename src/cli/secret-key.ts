/**
 * `switchyard secret-key rotate`: every channel's credentials sealed again
 * under a new key, and the store's key fingerprint changed with them, in one
 * transaction. Where the new key goes depends on where the current one is:
 *
 * - in `<dataDir>/secret.key` (no SWITCHYARD_SECRET_KEY): a new random key
 *   replaces it, the old one kept in secret.key.old until the database holds
 *   the new seals (put back if that fails). Instances reading that file pick
 *   the new key up at their next refresh.
 * - in SWITCHYARD_SECRET_KEY, or `--new-key` given: the new passphrase (the
 *   one given, or a generated one printed once) must be set on every instance,
 *   which is restarted; until then their channels are broken (wrong key).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, rename, unlink, writeFile } from 'node:fs/promises';
import { GatewayError } from '../core/errors.js';
import { keyFilePath, SecretBox } from '../storage/secrets.js';
import { resealAll, type StoreSecrets } from '../storage/store-secrets.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';

export interface RotateOptions {
  dataDir: string;
  /** A passphrase to use as SWITCHYARD_SECRET_KEY from now on. */
  newKey?: string;
  /** Drop credentials the current key cannot open (their channels are disabled) instead of refusing. */
  forgetUnreadable: boolean;
}

export async function rotateSecretKey(store: Store, secrets: StoreSecrets, options: RotateOptions, actor: AuditActor): Promise<Record<string, unknown>> {
  const current = secrets.box;
  if (!current && !options.forgetUnreadable) {
    throw new GatewayError(
      'invalid_request',
      `rotation needs the current key to open the credentials: ${secrets.problem?.detail}.\n` +
        'If that key is lost for good, pass --forget-unreadable: the credentials it sealed are dropped and their channels disabled, to be given again',
    );
  }
  if (options.newKey !== undefined && options.newKey.length < 16) {
    throw new GatewayError('invalid_request', '--new-key: use a passphrase of at least 16 characters', { param: 'new-key' });
  }
  if (options.newKey !== undefined || secrets.fromEnv) {
    const passphrase = options.newKey ?? randomBytes(32).toString('base64url');
    const outcome = await resealAll(store, current, await SecretBox.fromPassphrase(passphrase), options.forgetUnreadable, actor);
    return {
      ...outcome,
      ...(options.newKey === undefined ? { secretKey: passphrase } : {}),
      note:
        'set SWITCHYARD_SECRET_KEY to the new key on every instance and restart them (and use it with this CLI); ' +
        'until they restart, instances with the old key serve none of the channels with credentials' +
        (options.newKey === undefined ? '. The key is shown once' : ''),
    };
  }
  const { box: next, keyFileText } = SecretBox.generate();
  const path = keyFilePath(options.dataDir);
  const previous = `${path}.old`;
  const hadKeyFile = existsSync(path);
  // Both keys stay on disk until the database holds the new seals: a crash half way loses neither.
  // The file changes first: an instance that looks again after the commit finds the new key at once.
  await writeFile(`${path}.new`, keyFileText, { mode: 0o600 });
  if (hadKeyFile) await copyFile(path, previous);
  await rename(`${path}.new`, path);
  let outcome: Awaited<ReturnType<typeof resealAll>>;
  try {
    outcome = await resealAll(store, current, next, options.forgetUnreadable, actor);
  } catch (error) {
    await (hadKeyFile ? rename(previous, path) : unlink(path));
    throw error;
  }
  if (hadKeyFile) await unlink(previous);
  return {
    ...outcome,
    keyFile: path,
    note: 'instances reading this secret.key use the new key from their next refresh; copy the file wherever another instance keeps its own copy, and back it up with the database',
  };
}
