/**
 * The services one gateway instance shares across requests, assembled once
 * at start (see server/bootstrap.ts) and handed to every route.
 */
import type { RequestArrivals } from '../core/arrivals.js';
import type { Logger } from 'pino';
import type { InFlightCalls } from '../core/in-flight.js';
import type { PriceTable } from '../billing/prices.js';
import type { StoredPrices } from '../billing/stored-prices.js';
import type { BudgetIndex } from '../billing/budgets/budget-index.js';
import type { QuotaLedger } from '../billing/quota/ledger.js';
import type { UsageRecorder } from '../billing/usage-recorder.js';
import type { GatewaySettings } from '../config/env.js';
import type { ConfigFile } from '../config/file.js';
import type { ChannelHealth } from '../routing/health.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import type { SessionAffinity } from '../routing/session-affinity.js';
import type { AccessNotes } from '../observe/access-log.js';
import type { GatewayMetrics } from '../observe/metrics.js';
import type { RequestTracer } from '../observe/request-trace.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { StoreSecrets } from '../storage/store-secrets.js';
import type { Store } from '../storage/types.js';
import type { TaskEngine } from '../tasks/engine.js';
import type { AdapterRegistry } from '../upstreams/registry.js';
import type { KeyAuthenticator } from './auth.js';
import type { RateLimits } from './rate-limits.js';

export interface AppContext {
  settings: GatewaySettings;
  store: Store;
  secrets: StoreSecrets;
  logger: Logger;
  auth: KeyAuthenticator;
  limits: RateLimits;
  channels: ChannelRegistry;
  health: ChannelHealth;
  /** Session pins for prompt caches (routing/session-affinity.ts); absent when turned off. */
  affinity?: SessionAffinity;
  prices: PriceTable;
  /** Loads the stored prices into `prices` (refresh after a write) and names the stored ones it skipped. */
  storedPrices: StoredPrices;
  recorder: UsageRecorder;
  /** Prometheus metrics of this instance (GET /metrics). */
  metrics: GatewayMetrics;
  /** What the access-log line and the trace span of a routed request name (key, model, channel, attempts, tokens). */
  accessNotes: AccessNotes;
  /** One trace span per request, when traces are configured (the SDK is not loaded otherwise). */
  tracer?: RequestTracer;
  /** Tells the other instances that keys, channels or prices changed. */
  changes: ChangeFeed;
  /** Every budget by the key, user or team it limits (billing/budgets/budget-index.ts). */
  budgets: BudgetIndex;
  /** Holds against key quotas, shared by the instances (Redis, else PostgreSQL) or local. */
  quota: QuotaLedger;
  adapters: AdapterRegistry;
  /** The declarative config file as applied at start, for families that read their own section. */
  fileConfig?: ConfigFile;
  /** Context windows per model name or `prefix*` from the config file (Responses truncation). */
  contextWindows?: Record<string, number>;
  /** Durable asynchronous work (image and video tasks). */
  tasks: TaskEngine;
  /** The admin credential's SHA-256 (hex). */
  adminKeyHash: string;
  /** With Redis configured: why it cannot be used right now (`/readyz`), or undefined while it answers. */
  redisUnavailable?: () => string | undefined;
  /** The chat calls running on this instance (shutdown ends those the grace period did not see finish). */
  inFlight: InFlightCalls;
  /** Interactive requests received so far (the batch loop yields to them). */
  arrivals: RequestArrivals;
}
