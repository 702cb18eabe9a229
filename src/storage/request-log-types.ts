/** The request log's rows and the usage reports read from it, as the storage layer hands them out. */
import type { Attempt } from '../core/attempt.js';
import type { EstimatedPart } from '../core/chat.js';
import type { PagePosition } from './paging.js';

export interface RequestLogRow {
  id: string;
  requestId: string;
  keyId: string | null;
  /** The key's team and user when the request was made (read back as null where none was recorded). */
  teamId?: string | null;
  userId?: string | null;
  /** Client family: messages, generate, responses, images, videos. */
  family: string;
  model: string;
  upstreamModel: string | null;
  /** The channel that answered, if any. */
  channelId: string | null;
  /** Every channel tried, in order (names), for failover diagnosis. */
  triedChannels: string[];
  httpStatus: number;
  errorKind: string | null;
  errorMessage: string | null;
  stream: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The part of cacheWriteTokens written with the one-hour TTL (read back as 0 where none was recorded). */
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
  /** Usage counted by the gateway's tokenizer because the upstream reported none (any part; older rows have only this). */
  estimated: boolean;
  /** Which numbers the gateway counted itself; empty when none, and in rows older than the column. */
  estimatedParts?: readonly EstimatedPart[];
  cost: number;
  /** What the serving channel's provider charged, from its cost table; null when it has no price for the model. */
  upstreamCost: number | null;
  /** Answered work for a model priced nowhere: its cost of 0 is not a price (read back as false where not recorded). */
  unpriced?: boolean;
  latencyMs: number;
  firstByteMs: number | null;
  clientIp: string | null;
  /** What translation mapped or ignored, e.g. `mapped=system messages; ignored=top_k`; null when nothing. */
  translation: string | null;
  /** Each channel tried, how it ended and how long it took (empty in rows older than the record). */
  attempts: Attempt[];
  /** Images the request made (`/v1/images/*`); null for requests that make none (read back as null in older rows). */
  images?: number | null;
  createdAt: number;
}

export interface LogQuery {
  keyId?: string;
  teamId?: string;
  /** Only rows of one of these teams (a team admin's reach). */
  teamIds?: readonly string[];
  userId?: string;
  model?: string;
  channelId?: string;
  family?: string;
  /** HTTP statuses from `from` to `to`, both included (one code: the same twice). */
  status?: { from: number; to: number };
  /** Only rows created strictly before this time (for paging back). */
  before?: number;
  since?: number;
  /** Only rows created strictly before this time. */
  until?: number;
  /** The last row of the previous page: the page continues strictly after it (newest first). */
  after?: PagePosition;
  limit?: number;
}

export type UsageGrouping = 'none' | 'family' | 'model' | 'channel' | 'key' | 'team' | 'user';

export interface UsageSeriesQuery {
  since: number;
  until: number;
  /** Bucket width in ms, a whole number of minutes. */
  step: number;
  by: UsageGrouping;
  /** With a grouping: this many busiest groups get a series each; the rest are summed into one, `(other)`. */
  top: number;
  family?: string;
  model?: string;
  channelId?: string;
  keyId?: string;
  teamId?: string;
  /** Only these teams' sums (a team admin's reach). */
  teamIds?: readonly string[];
  userId?: string;
}

export interface UsageTotals {
  requests: number;
  errors: number;
  rateLimited: number;
  failovers: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** What the providers charged for the requests whose channel prices their model (`costedRequests`). */
  upstreamCost: number;
  costedRequests: number;
  /** What clients were charged for those same requests. */
  costedSpend: number;
  /** Requests answered with no price anywhere for their model (their cost counted as 0). */
  unpricedRequests: number;
  /** Latency quantiles read off per-minute histograms (bucket-interpolated); null without requests. */
  p50Ms: number | null;
  p95Ms: number | null;
  /** Median time to the first byte, of the requests that recorded one. */
  ttftP50Ms: number | null;
}

export interface UsagePoint extends UsageTotals {
  /** Bucket start, epoch ms. */
  t: number;
}

export interface UsageSeries {
  /** The group's value: a family, model, channel, key, team or user id ('' for none); 'all' when not grouped; '(other)' for the groups beyond the busiest. */
  group: string;
  /** The group's totals over the whole range (quantiles from its merged histograms). */
  totals: UsageTotals;
  points: UsagePoint[];
}

export interface UsageQuery {
  keyId?: string;
  teamId?: string;
  /** Only these teams' sums (a team admin's reach). */
  teamIds?: readonly string[];
  userId?: string;
  since?: number;
  until?: number;
}

export interface UsageSummaryRow extends UpstreamCostSums {
  keyId: string | null;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite1hTokens: number;
  cost: number;
  /** Requests answered for this model with no price anywhere (their cost counted as 0). */
  unpricedRequests: number;
}

/** What the providers charged, over the requests whose channel had a price for their model in its cost table. */
export interface UpstreamCostSums {
  upstreamCost: number;
  /** Requests whose upstream cost is known. */
  costedRequests: number;
  /** What clients were charged for those requests: the margin is this less `upstreamCost`. */
  costedSpend: number;
}

/** A channel's spend and upstream cost over a period (`channelId` null: requests no channel served). */
export interface ChannelUsageRow extends UpstreamCostSums {
  channelId: string | null;
  requests: number;
  /** What clients were charged. */
  cost: number;
}

/** A team's or a user's requests, tokens and spend over a period (`id` null: requests of none). */
export interface OwnerUsageRow {
  id: string | null;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** What clients were charged, refunds subtracted. */
  cost: number;
}

/** Usage totals per key and model, per channel, per team and per user, over one period. */
export interface UsageReport {
  byKey: UsageSummaryRow[];
  byChannel: ChannelUsageRow[];
  byTeam: OwnerUsageRow[];
  byUser: OwnerUsageRow[];
}

export interface RequestLogRepository {
  /** Writes the rows and adds them to the per-minute usage sums, in one transaction. */
  insertMany(rows: RequestLogRow[]): Promise<void>;
  query(query: LogQuery): Promise<RequestLogRow[]>;
  get(id: string): Promise<RequestLogRow | undefined>;
  /** Usage over time from the per-minute sums, one series per group, plus the totals. */
  series(query: UsageSeriesQuery): Promise<{ totals: UsageTotals; series: UsageSeries[] }>;
  usage(query: UsageQuery): Promise<UsageSummaryRow[]>;
  /** The same totals per key and model, and per channel (spend, upstream cost), from one read. */
  usageReport(query: UsageQuery): Promise<UsageReport>;
  /**
   * Deletes up to `batch` of the oldest rows created before `before`, or
   * beyond the newest `keepRows`; returns how many went.
   */
  prune(options: { before?: number; keepRows?: number; batch: number }): Promise<number>;
}
