/** The admin API's records as the console reads them (see docs/admin-api.md). */

export interface KeyView {
  id: string;
  name: string;
  keyPrefix: string;
  status: 'active' | 'disabled';
  quota: number | null;
  used: number;
  remaining: number | null;
  models: string[] | null;
  allowIps: string[] | null;
  rpm: number | null;
  tpm: number | null;
  expiresAt: number | null;
  strictTranslation: boolean;
  createdAt: number;
  /** On a create or change answer: models the key may use that have no price (with a quota, they would cost nothing). */
  warnings?: string[];
}

/** One row of `GET /admin/usage`: totals per key and model. */
export interface UsageRow {
  keyId: string | null;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  unpricedRequests: number;
}

export interface Breaker {
  state: 'closed' | 'open' | 'half_open';
  openUntil: number | null;
  reason: string | null;
  consecutiveFailures: number;
  recentErrors?: Array<{ at: number; message: string }>;
}

export interface ChannelView {
  id: string;
  name: string;
  type: string;
  baseUrl: string;
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  settings: Record<string, unknown>;
  apiKeyCount: number;
  health?: Breaker;
  /** Why the channel serves nothing though configured (credentials that do not open, settings its type rejects). */
  problem?: string | null;
  /** Settings the channel keeps but the gateway ignores (stored before settings were checked). */
  ignoredSettings?: string[];
}

/** One key of a channel type's settings, as JSON Schema. */
export interface SettingSchema {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  [key: string]: unknown;
}

export interface ChannelType {
  type: string;
  serves: string[];
  /** What a channel of the type must declare: an absolute base URL, at least one credential. */
  needs?: { baseUrl: boolean; credentials: boolean };
  /** The models a channel serves when it lists none. */
  defaultModels?: string[];
  /** The settings' JSON Schema: every key it takes, with its description and default. */
  settings?: { properties?: Record<string, SettingSchema>; [key: string]: unknown };
}

export interface LogRow {
  id: string;
  requestId: string;
  keyId: string | null;
  family: string;
  model: string;
  upstreamModel: string | null;
  channelId: string | null;
  triedChannels: string[];
  httpStatus: number;
  errorKind: string | null;
  errorMessage: string | null;
  stream: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The part of the cache writes with the one-hour TTL (0 in rows older than the record). */
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
  estimated: boolean;
  /** Which numbers the gateway counted itself; absent or empty in older rows. */
  estimatedParts?: Array<'input' | 'output'>;
  cost: number;
  /** What the serving channel's provider charged, by its cost table; null when it has no price for the model. */
  upstreamCost: number | null;
  /** Answered while the model had no price anywhere: the cost of 0 is not a price. */
  unpriced?: boolean;
  latencyMs: number;
  firstByteMs: number | null;
  clientIp: string | null;
  translation: string | null;
  createdAt: number;
}

export interface LogDetail extends LogRow {
  attempts: Array<{ channel: string; channelId: string | null; status: number | null; errorKind: string | null; message: string | null; durationMs: number | null }>;
  timings: { totalMs: number | null; firstByteMs: number | null; queueMs: number | null; upstreamMs?: number | null };
  translationPlan?: { mapped: string[]; ignored: string[] };
  keyName: string | null;
  channelName: string | null;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string | null;
}

export interface SeriesPoint {
  t: number;
  requests: number;
  errors: number;
  rateLimited: number;
  failovers: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  upstreamCost: number;
  costedRequests: number;
  costedSpend: number;
  unpricedRequests: number;
  p50Ms: number | null;
  p95Ms: number | null;
  ttftP50Ms: number | null;
}

/** Spend beside upstream cost (`GET /admin/usage`): the margin is over the requests whose upstream cost is known. */
export interface MarginView {
  requests: number;
  cost: number;
  upstreamCost: number;
  costedRequests: number;
  costedSpend: number;
  margin: number | null;
  uncostedRequests: number;
}

export interface UsageReport {
  channels: Array<MarginView & { channelId: string | null; channelName: string | null }>;
  totals: MarginView;
}

export interface UsageSeries {
  since: number;
  until: number;
  step: number;
  by: string;
  totals: Omit<SeriesPoint, 't'>;
  /** `label`: the group's name (a key's or channel's, where `group` is its id). */
  series: Array<{ group: string; label?: string; totals?: Omit<SeriesPoint, 't'>; points: SeriesPoint[] }>;
}

export interface TaskView {
  id: string;
  family: 'images' | 'videos';
  action: string;
  status: string;
  progress: string | number | null;
  keyId: string | null;
  channelId: string | null;
  prompt: string | null;
  cost: number;
  failReason: string | null;
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  pollCount: number;
  model?: string | null;
  media: Array<{ url: string; contentType: string | null; width?: number | null; height?: number | null; role?: string | null }>;
  buttons: Array<{ customId: string; label: string }>;
}

export interface TaskDetail extends TaskView {
  history: Array<{ at: number; event: string; detail: string | null }>;
  deliveries: Array<{ id: string; url: string; event: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null; deliveredAt: number | null }>;
}

/** One model's price: USD per million tokens, per call, per second of video; long-context tiers. */
export interface ModelPrice {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
  reasoning?: number;
  perCall?: number;
  perSecond?: number | Record<string, number>;
  tiers?: Array<{ above: number; input?: number; output?: number; cacheRead?: number; cacheWrite?: number; cacheWrite1h?: number; reasoning?: number }>;
}

export interface PriceView {
  /** A model name, `*`, or `prefix*`. */
  model: string;
  price: ModelPrice;
  source: 'admin' | 'config';
  updatedAt: number;
  /** The config file declares this model's price: it sets it again when the file's price changes. */
  configOwned: boolean;
}

export interface CatalogueAbout {
  package: string;
  version: string;
  date: string;
}

export interface PriceList {
  data: PriceView[];
  /** Stored prices that no longer parse (edited by hand), skipped until fixed. */
  problems: Array<{ model: string; problem: string }>;
  catalogue: CatalogueAbout | null;
}

export interface PriceQuote {
  model: string;
  upstreamModel: string | null;
  quote: { price: ModelPrice; source: 'admin' | 'config' | 'catalogue'; matched: string } | null;
}

export interface CatalogueModel {
  model: string;
  provider: string;
  name?: string;
  price: ModelPrice;
}
