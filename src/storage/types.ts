/**
 * What the rest of the gateway needs from storage. One implementation
 * (Kysely) serves both engines, SQLite and PostgreSQL, with the same
 * migrations. Times are epoch milliseconds; money is in quota units (USD).
 */
import type { Kysely } from 'kysely';
import type { AdminSessionRecord, AdminSessionRepository } from './admin-session-types.js';
import type { AuditActor, AuditEntry, AuditQuery } from './audit-types.js';
import type { BudgetRecord, BudgetRepository } from './budget-types.js';
import type { AdminTokenRecord, AdminTokenRepository } from './admin-token-types.js';
import type { RequestLogRepository } from './request-log-types.js';
import type { KeyHoldings, TeamMember, TeamRecord, TeamRepository, UserRecord, UserRepository } from './team-types.js';

export type KeyStatus = 'active' | 'disabled';

export interface KeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  keyHash: string;
  /** The first characters of the secret, for people to recognise a key in lists. */
  keyPrefix: string;
  status: KeyStatus;
  expiresAt: number | null;
  /** null: unlimited. */
  quota: number | null;
  used: number;
  /** null: every model. */
  models: string[] | null;
  /** CIDR ranges or single addresses; null: any address. */
  allowIps: string[] | null;
  rpm: number | null;
  tpm: number | null;
  /** Refuse what an upstream would ignore instead of ignoring it (see core/translation-plan.ts). */
  strictTranslation: boolean;
  /** The owning team; null: no team's. Request logs and usage carry it, as it was at the request. */
  teamId: string | null;
  /** The owning user, a member of `teamId`; null: the team's key (or no one's). */
  userId: string | null;
  /** Read with the key a client presents: its user is disabled, so the key serves nobody. */
  ownerDisabled?: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NewKey {
  name: string;
  keyHash: string;
  keyPrefix: string;
  status?: KeyStatus;
  expiresAt?: number | null;
  quota?: number | null;
  models?: string[] | null;
  allowIps?: string[] | null;
  rpm?: number | null;
  tpm?: number | null;
  strictTranslation?: boolean;
  teamId?: string | null;
  userId?: string | null;
}

export type KeyPatch = Partial<Omit<NewKey, 'keyHash' | 'keyPrefix'>> & { keyHash?: string; keyPrefix?: string };

export type ChannelStatus = 'enabled' | 'disabled';

export interface ChannelRecord {
  id: string;
  name: string;
  type: string;
  baseUrl: string;
  /** Upstream credentials, each encrypted at rest (see storage/secrets.ts). */
  apiKeysEncrypted: string[];
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  status: ChannelStatus;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export interface NewChannel {
  name: string;
  type: string;
  baseUrl: string;
  apiKeysEncrypted: string[];
  models: string[];
  modelMapping?: Record<string, string>;
  priority?: number;
  weight?: number;
  status?: ChannelStatus;
  settings?: Record<string, unknown>;
}

export type ChannelPatch = Partial<NewChannel>;

export interface KeyRepository {
  create(key: NewKey): Promise<KeyRecord>;
  get(id: string): Promise<KeyRecord | undefined>;
  getByName(name: string): Promise<KeyRecord | undefined>;
  getByHash(keyHash: string): Promise<KeyRecord | undefined>;
  list(): Promise<KeyRecord[]>;
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined>;
  /** Adds spent amounts to `used`, many keys in one round trip (the batched settle). */
  addUsed(amounts: Map<string, number>): Promise<void>;
  count(): Promise<number>;
  /** How many keys a team or a user holds, how many active, and their spend. */
  holdings(owner: { teamId: string } | { userId: string }): Promise<KeyHoldings>;
}

export interface ChannelRepository {
  create(channel: NewChannel): Promise<ChannelRecord>;
  get(id: string): Promise<ChannelRecord | undefined>;
  getByName(name: string): Promise<ChannelRecord | undefined>;
  list(): Promise<ChannelRecord[]>;
  update(id: string, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  delete(id: string): Promise<boolean>;
  count(): Promise<number>;
}

export interface SettingsRepository {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** Stores `value` unless the setting exists; the value stored afterwards (another writer's, when it came first). */
  setIfAbsent(name: string, value: string): Promise<string>;
}

export type PriceSource = 'admin' | 'config';

export interface PriceRecord {
  /** A model name, `*`, or `prefix*`. */
  model: string;
  /** The price as stored: JSON text, checked by the layer that reads it (a row edited by hand may not parse). */
  priceJson: string;
  /** `admin` or `config` as written by the gateway; whatever the row holds when edited by hand. */
  source: string;
  updatedAt: number;
}

export interface PriceRepository {
  /** Every stored price, by model. */
  list(): Promise<PriceRecord[]>;
  get(model: string): Promise<PriceRecord | undefined>;
  /** Sets one model's price, replacing any stored one, and says who set it. */
  put(model: string, price: object, source: PriceSource): Promise<PriceRecord>;
  /** Deletes one model's price (only when `onlySource` set it, if given); whether a row went. */
  delete(model: string, onlySource?: PriceSource): Promise<boolean>;
}

/** A secret replaced (the admin key, the store's secret key): which one, and what can be said of it without it. */
export interface SecretChange {
  id: string;
  facts: Record<string, unknown>;
}

/**
 * What an audit entry is made from, by kind of target. A new kind is one
 * line here and one in audit-views.ts (what an entry keeps of it).
 */
export interface AuditSubjects {
  key: KeyRecord;
  channel: ChannelRecord;
  price: PriceRecord;
  'admin-key': SecretChange;
  'secret-key': SecretChange;
  team: TeamRecord;
  user: UserRecord;
  'team-member': TeamMember;
  budget: BudgetRecord;
  'admin-token': AdminTokenRecord;
  session: AdminSessionRecord;
}

export type AuditKind = keyof AuditSubjects;
/** `<kind>.<verb>`: `key.create`, `channel.health-reset`, `admin-key.rotate`. */
export type AuditAction<K extends AuditKind> = `${K}.${string}`;

export interface AuditRepository {
  /** Records one change of a target of `kind` by `actor`; the views come from audit-views.ts, secrets removed. */
  record<K extends AuditKind>(actor: AuditActor, action: AuditAction<K>, kind: K, before: AuditSubjects[K] | null, after: AuditSubjects[K] | null): Promise<AuditEntry>;
  get(id: string): Promise<AuditEntry | undefined>;
  /** Newest first. */
  query(query: AuditQuery): Promise<AuditEntry[]>;
  /** Deletes up to `batch` entries older than `before`, oldest first; how many went. */
  prune(options: { before: number; batch: number }): Promise<number>;
}

/** The repositories an administrative change writes through, each bound to one transaction (Store.transaction). */
export interface StoreWrites {
  readonly keys: KeyRepository;
  readonly channels: ChannelRepository;
  readonly settings: SettingsRepository;
  readonly prices: PriceRepository;
  readonly audit: AuditRepository;
  readonly teams: TeamRepository;
  readonly users: UserRepository;
  readonly budgets: BudgetRepository;
  readonly adminTokens: AdminTokenRepository;
  /** Console sessions and pending sign-ins (single sign-on). */
  readonly sessions: AdminSessionRepository;
}

export interface Store extends StoreWrites {
  readonly engine: 'sqlite' | 'postgres';
  readonly logs: RequestLogRepository;
  /**
   * Runs `work` in one transaction: everything it writes through `tx`, the
   * change and its audit entry, commits together or not at all. Inside, use
   * `tx` only: on SQLite the store's one connection is the transaction's until it ends.
   */
  transaction<T>(work: (tx: StoreWrites) => Promise<T>): Promise<T>;
  /** The query builder, for later concerns (tasks, stored responses) that add their own tables by migration. */
  readonly db: Kysely<any>;
  /** Throws when the database cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
