/**
 * The tables as Kysely sees them (snake_case columns). Times are epoch ms in
 * bigint columns, money is double precision, lists and maps are JSON text, and
 * flags are 0/1 integers so both engines read them the same way.
 */
import type { Generated } from 'kysely';

export interface KeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  status: string;
  expires_at: number | null;
  quota: number | null;
  used: Generated<number>;
  models: string | null;
  allow_ips: string | null;
  rpm: number | null;
  tpm: number | null;
  strict_translation: Generated<number>;
  /** The owning team; null: a key of no team. */
  team_id: string | null;
  /** The owning user (a member of `team_id`); null: a team's key, or no team's. */
  user_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ChannelsTable {
  id: string;
  name: string;
  type: string;
  base_url: string;
  api_keys: string;
  models: string;
  model_mapping: string;
  priority: number;
  weight: number;
  status: string;
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface RequestLogsTable {
  id: string;
  request_id: string;
  key_id: string | null;
  family: string;
  model: string;
  upstream_model: string | null;
  channel_id: string | null;
  tried_channels: string;
  http_status: number;
  error_kind: string | null;
  error_message: string | null;
  stream: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  estimated: number;
  cost: number;
  latency_ms: number;
  first_byte_ms: number | null;
  client_ip: string | null;
  translation: string | null;
  /** JSON list of core/attempt.ts `Attempt`; null in rows older than the column. */
  attempts: string | null;
  /** Which numbers were estimated, comma-separated (`input,output`); null when none, or in rows older than the column. */
  estimated_parts: string | null;
  /** The part of cache_write_tokens written with the one-hour TTL. */
  cache_write_1h_tokens: Generated<number>;
  /** What the upstream charged for the request, from the channel's cost table; null when the channel has none. */
  upstream_cost: number | null;
  /** 1 when the request had usage but its model no price (so `cost` is 0 for want of a price, not of usage). */
  unpriced: Generated<number>;
  /** The key's team and user when the request was made; null when none (or in rows older than the columns). */
  team_id: string | null;
  user_id: string | null;
  /** Images the request made (`/v1/images/*`); null for requests that make none, and in rows older than the column. */
  images: number | null;
  created_at: number;
}

/**
 * Per-minute and per-hour sums of the request log (see migrations/0007_usage_sums.ts).
 * The histogram columns (lat_0…, ttft_0…, latency-buckets.ts) are named by
 * position, so usage-sums.ts queries these tables untyped.
 */
export interface UsageSumsTable {
  bucket: number;
  family: string;
  model: string;
  channel_id: string;
  key_id: string;
  /** The key's team and user, '' when none. */
  team_id: Generated<string>;
  user_id: Generated<string>;
  requests: number;
  errors: number;
  rate_limited: number;
  failovers: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost: number;
  latency_ms_sum: number;
  cache_write_1h_tokens: Generated<number>;
  upstream_cost: Generated<number>;
  /** Requests whose upstream cost is known (their channel has a cost table). */
  costed_requests: Generated<number>;
  /** What clients were charged for those requests (the other side of their margin). */
  costed_spend: Generated<number>;
  /** Answered requests whose model had no price. */
  unpriced_requests: Generated<number>;
}

/** Prices set through the admin API (`source` admin) or applied from the config file (`source` config). */
export interface PricesTable {
  /** A model name or a `prefix*` pattern. */
  model: string;
  /** JSON of billing/prices.ts `ModelPrice`. */
  price: string;
  source: string;
  updated_at: number;
}

export interface SettingsTable {
  name: string;
  value: string;
  updated_at: number;
}

/** One administrative change (see audit-log.ts); `before` and `after` are JSON of the target's public view. */
export interface AuditLogTable {
  id: string;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_kind: string;
  target_id: string | null;
  target_name: string | null;
  before: string | null;
  after: string | null;
  request_id: string | null;
  client_ip: string | null;
}

export interface TeamsTable {
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: string;
  /** Case-folded, unique. */
  email: string;
  name: string | null;
  status: string;
  /** The subject a sign-in provider names the user by; null until one does. */
  external_id: string | null;
  /** The gateway-wide admin role (owner, admin, viewer); null: none. */
  role: string | null;
  created_at: number;
  updated_at: number;
}

export interface AdminTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** sha256 hex of the secret, unique. */
  token_hash: string;
  /** The secret's first characters, to recognise it; not enough to use it. */
  token_prefix: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  /** `member` or `admin` (a team admin). */
  role: string;
  created_at: number;
}

export interface BudgetsTable {
  id: string;
  scope_kind: string;
  scope_id: string;
  name: string | null;
  amount_usd: number | null;
  tokens: number | null;
  period: string;
  time_zone: string;
  alert_url: string | null;
  created_at: number;
  updated_at: number;
}

/** One period's settled spend of one budget. */
export interface BudgetSpendTable {
  budget_id: string;
  period_start: number;
  spent_usd: number;
  spent_tokens: number;
  /** The highest alert threshold (percent) this period has sent. */
  alerted_percent: number;
}

/** A hold in flight against a budget's period (PostgreSQL without Redis). */
export interface BudgetHoldsTable {
  id: string;
  budget_id: string;
  period_start: number;
  amount_usd: number;
  tokens: number;
  expires_at: number;
}

/** A console session (single sign-on); `id` is the SHA-256 of the cookie's secret. */
export interface AdminSessionsTable {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  provider_sid: string | null;
}

/** A sign-in started at the provider and not finished yet; `id` is the SHA-256 of its state. */
export interface AdminLoginsTable {
  id: string;
  code_verifier: string;
  nonce: string;
  return_to: string;
  expires_at: number;
}

export interface Database {
  keys: KeysTable;
  channels: ChannelsTable;
  request_logs: RequestLogsTable;
  usage_minutes: UsageSumsTable;
  usage_hours: UsageSumsTable;
  settings: SettingsTable;
  prices: PricesTable;
  audit_log: AuditLogTable;
  teams: TeamsTable;
  users: UsersTable;
  team_members: TeamMembersTable;
  admin_tokens: AdminTokensTable;
  budgets: BudgetsTable;
  budget_spend: BudgetSpendTable;
  budget_holds: BudgetHoldsTable;
  admin_sessions: AdminSessionsTable;
  admin_logins: AdminLoginsTable;
}
