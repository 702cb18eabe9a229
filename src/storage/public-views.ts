/**
 * Records as they may leave the store, to the admin API, the CLI and the
 * audit log alike: a key without its hash, a channel with the number of its
 * credentials, never the credentials (sealed or not).
 */
import type { ChannelRecord, KeyRecord } from './types.js';

/** A key as the admin API shows it: no hash, no secret. */
export function publicKey(record: KeyRecord) {
  const { keyHash: _hash, ...rest } = record;
  return { ...rest, remaining: record.quota === null ? null : Math.max(0, record.quota - record.used) };
}

/** A channel as the admin API shows it: the number of credentials, never the credentials. */
export function publicChannel(record: ChannelRecord) {
  const { apiKeysEncrypted, ...rest } = record;
  return { ...rest, enabled: record.status === 'enabled', apiKeyCount: apiKeysEncrypted.length };
}
