/**
 * Client API keys: looked up by the SHA-256 of the secret, cached for a short
 * time so the hot path does not touch the database, and checked for status,
 * expiry, client address, model and quota.
 */
import { createHash, randomBytes } from 'node:crypto';
import type net from 'node:net';
import { isIpOrCidr } from '../config/entity-rules.js';
import { addressList, listed, normaliseIp } from './address-list.js';
import { GatewayError } from '../core/errors.js';
import { matchesAnyModelPattern } from '../core/model-pattern.js';
import type { KeyRecord, Store } from '../storage/types.js';

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Recent secrets' hashes, so a busy key is not hashed on every request; bounded. */
const recentHashes = new Map<string, string>();
const RECENT_HASHES_LIMIT = 10_000;

function cachedHash(secret: string): string {
  let hash = recentHashes.get(secret);
  if (hash === undefined) {
    if (recentHashes.size >= RECENT_HASHES_LIMIT) recentHashes.clear();
    hash = hashKey(secret);
    recentHashes.set(secret, hash);
  }
  return hash;
}

/** A new client secret: `sk-sy-` and 40 base62-ish characters. */
export function generateKeySecret(prefix = 'sk-sy-'): string {
  return prefix + randomBytes(30).toString('base64url').replace(/[-_]/g, '').slice(0, 40);
}

export interface ClientKey {
  record: KeyRecord;
  allowList?: net.BlockList;
  /** Set when the stored record fails the write-time rules: the key is refused, nothing else is affected. */
  invalid?: string;
}

interface CacheEntry {
  key: ClientKey | null;
  fetchedAt: number;
  /** Spend settled by this instance since the record was read. */
  spentSinceFetch: number;
}

function buildAllowList(ranges: string[] | null): net.BlockList | undefined {
  if (!ranges || ranges.length === 0) return undefined;
  const bad = ranges.find((range) => !isIpOrCidr(range));
  if (bad !== undefined) throw new Error(`allowIps entry "${bad}" is not an address or CIDR range`);
  return addressList(ranges);
}

export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    /** Spend recorded but not yet flushed to storage, per key id. */
    private readonly pendingSpend: (keyId: string) => number = () => 0,
    /** Told about a stored key that fails the write-time rules (logged once per load). */
    private readonly onInvalid: (record: KeyRecord, problem: string) => void = () => {},
  ) {}

  /**
   * Resolves a secret to its key, or throws 401. Model and quota checks are
   * separate (see `authorize`). A key read within the refresh interval is
   * checked at once, with no promise; only a read from storage is awaited.
   */
  authenticate(secret: string | undefined, clientIp: string): ClientKey | Promise<ClientKey> {
    if (!secret) throw new GatewayError('authentication', 'missing API key');
    const hash = cachedHash(secret);
    const entry = this.cache.get(hash);
    if (entry && Date.now() - entry.fetchedAt <= this.ttlMs) return this.checked(entry, clientIp);
    return this.load(hash).then((loaded) => this.checked(loaded, clientIp));
  }

  /** The entry's key when it may be used now, from this address; else the 401 or 403 that says why. */
  private checked(entry: CacheEntry, clientIp: string): ClientKey {
    const key = entry.key;
    if (!key) throw new GatewayError('authentication', 'invalid API key');
    const { record } = key;
    if (record.status !== 'active') throw new GatewayError('authentication', 'API key is disabled');
    if (record.ownerDisabled) throw new GatewayError('authentication', 'API key is disabled: its user is disabled');
    if (key.invalid) throw new GatewayError('authentication', 'API key is disabled: its stored settings are invalid; ask the operator to fix them');
    if (record.expiresAt !== null && record.expiresAt <= Date.now()) throw new GatewayError('authentication', 'API key has expired');
    if (key.allowList && !listed(key.allowList, clientIp)) throw new GatewayError('permission', `API key may not be used from address ${normaliseIp(clientIp).address}`);
    return key;
  }

  /** Checks that the key may use this model (or image action, `ig_*`) and still has quota. */
  authorize(key: ClientKey, model: string): void {
    const { record } = key;
    if (record.models && !matchesAnyModelPattern(record.models, model)) throw new GatewayError('permission', `API key may not use model "${model}"`, { param: 'model' });
    if (record.quota !== null && this.used(record.keyHash, record) >= record.quota) throw new GatewayError('quota_exhausted', 'API key quota is exhausted');
  }

  /** The key's spend as this instance knows it: stored, plus settled here since it was read. */
  spent(key: ClientKey): number {
    return this.used(key.record.keyHash, key.record);
  }

  /** Records spend settled by this instance so quota checks see it before the next read. */
  noteSpend(keyHash: string, amount: number): void {
    const entry = this.cache.get(keyHash);
    if (entry) entry.spentSinceFetch += amount;
  }

  /** Drops cached keys, e.g. after an admin change on this instance. */
  invalidate(): void {
    this.cache.clear();
  }

  private used(hash: string, record: KeyRecord): number {
    return record.used + (this.cache.get(hash)?.spentSinceFetch ?? 0);
  }

  private clientKey(record: KeyRecord): ClientKey {
    try {
      return { record, allowList: buildAllowList(record.allowIps) };
    } catch (error) {
      const problem = (error as Error).message;
      this.onInvalid(record, problem);
      return { record, invalid: problem };
    }
  }

  private async load(hash: string): Promise<CacheEntry> {
    const record = await this.store.keys.getByHash(hash);
    const entry: CacheEntry = {
      key: record ? this.clientKey(record) : null,
      fetchedAt: Date.now(),
      spentSinceFetch: record ? this.pendingSpend(record.id) : 0,
    };
    this.cache.set(hash, entry);
    return entry;
  }
}
