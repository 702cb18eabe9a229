/**
 * Gateway settings from the environment. The SWITCHYARD_* names are the
 * operator contract; their kinds, defaults and meanings live in one table
 * (`env-vars.ts`, rendered into docs/reference.md). Defaults give the
 * embedded single-machine setup (SQLite under ./data, the built-in simulator).
 */
import { ENV_VARS } from './env-vars.js';
import path from 'node:path';
import { envReader, SettingsError, type EnvReader } from './env-reader.js';
import { unknownVariables } from './env-unknown.js';

export interface GatewaySettings {
  /** The gateway's variables as they were set (raw text), for the settings the admin API shows. */
  environment?: Record<string, string>;
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL switches storage from SQLite to PostgreSQL. */
  databaseUrl?: string;
  /** PostgreSQL schema to work in (created if missing); default: the connection's search path. */
  databaseSchema?: string;
  /** SQLite's page cache, in MB. */
  sqliteCacheMb: number;
  /** Redis for rate-limit counters shared by many instances; memory when unset. */
  redisUrl?: string;
  /** While Redis cannot be reached: refuse limited keys (`closed`) or count per instance (`open`). */
  redisOutage: RedisOutagePolicy;
  adminKey?: string;
  configPath?: string;
  publicUrl?: string;
  /** Encrypts upstream credentials at rest; generated into the data dir when unset. */
  secretKey?: string;
  logLevel: string;
  /**
   * Addresses or CIDR ranges of the reverse proxies whose X-Forwarded-For is
   * believed; unset: the config file's `trustedProxies`, else none.
   */
  trustedProxies?: string[];
  /** Request-log retention: rows older than this many days go (0: every age kept). */
  logRetentionDays: number;
  /** Request-log retention: at most about this many rows (0: any number). */
  logMaxRows: number;
  /** Audit-log retention: entries older than this many days go (0: every age kept). */
  auditRetentionDays: number;
  /** One structured access-log line per request on stdout (SWITCHYARD_ACCESS_LOG=on|off). */
  accessLog: boolean;
  /** Prometheus metrics recorded and served at /metrics. */
  metrics: boolean;
  /** OpenTelemetry traces over OTLP/HTTP; absent: off, and the SDK is never loaded. */
  traces?: TraceSettings;
  /** Largest request body accepted, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Time to wait for an upstream's response headers before failing over. */
  upstreamTimeoutMs: number;
  /** Longest silence of an upstream while its answer's body arrives, streamed or not, before the call is ended. */
  upstreamIdleMs: number;
  /** Wait for a streamed answer's first piece before keep-alive frames are sent, and their interval; 0: never. */
  streamPingMs: number;
  /** Largest non-streamed upstream answer, in bytes (the request is cut beyond, and fails over). */
  maxUpstreamBodyBytes: number;
  /** Largest streamed upstream answer, all events together, in bytes. */
  maxUpstreamStreamBytes: number;
  /** Largest single event of an upstream stream, in bytes. */
  maxUpstreamEventBytes: number;
  /** Channels tried for one request, first attempt included. */
  maxAttempts: number;
  /** How long a channel whose credentials were refused stays out of rotation. */
  cooldownSeconds: number;
  /** How long SIGTERM waits for in-flight requests and streams. */
  shutdownGraceMs: number;
  /** How often channel and key changes made elsewhere (CLI, other instances) are picked up. */
  refreshIntervalMs: number;
  /**
   * Whether the built-in simulator may serve while no provider channel is
   * stored (SWITCHYARD_SIMULATOR=on|off); unset: the config file's
   * `simulator`, else on. Beside a provider channel it never serves.
   */
  simulator?: boolean;
  /**
   * Whether the built-in price catalogue prices models the operator priced
   * nowhere (SWITCHYARD_PRICE_CATALOGUE=on|off); unset: the config file's
   * `priceCatalogue`, else on.
   */
  priceCatalogue?: boolean;
  /**
   * Whether a session's turns stay on one channel and key
   * (SWITCHYARD_SESSION_AFFINITY=on|off); unset: the config file's
   * `sessionAffinity.enabled`, else on.
   */
  sessionAffinity?: boolean;
  /** How long a session's pin outlives its last turn, in seconds. */
  sessionAffinityIdleSeconds: number;
  /** Sessions one instance keeps pins for (least recently used forgotten first). */
  sessionAffinityMaxSessions: number;
  /** The Responses WebSocket transport (SWITCHYARD_RESPONSES_WEBSOCKET=on|off); unset: the config file's `responsesWebSocket`, else on. */
  responsesWebSocket?: boolean;
  /** How long a Responses WebSocket may wait for its next turn before it is closed. */
  responsesWebSocketIdleMs: number;
  /** The durable task engine (image and video tasks) and its callbacks. */
  tasks: TaskSettings;
  /** Single sign-on for the console, as set (text, judged at first use by admin/sso/settings.ts). */
  sso: SsoEnvironment;
}

/** The SWITCHYARD_SSO_* variables as text; a wrong one turns sign-on off, it does not stop the start. */
export interface SsoEnvironment {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUrl?: string;
  scopes: string;
  groupsClaim: string;
  label: string;
  sessionHours: string;
}

function ssoFromEnv(read: EnvReader): SsoEnvironment {
  return {
    issuer: read.text('SWITCHYARD_SSO_ISSUER'),
    clientId: read.text('SWITCHYARD_SSO_CLIENT_ID'),
    clientSecret: read.text('SWITCHYARD_SSO_CLIENT_SECRET'),
    redirectUrl: read.text('SWITCHYARD_SSO_REDIRECT_URL'),
    scopes: read.text('SWITCHYARD_SSO_SCOPES') as string,
    groupsClaim: read.text('SWITCHYARD_SSO_GROUPS_CLAIM') as string,
    label: read.text('SWITCHYARD_SSO_LABEL') as string,
    sessionHours: read.text('SWITCHYARD_SSO_SESSION_HOURS') as string,
  };
}

export interface TraceSettings {
  /** The full OTLP/HTTP traces URL (`…/v1/traces`). */
  endpoint: string;
  /** Sent with every export (an authorization token, a tenant). */
  headers: Record<string, string>;
  /** The share of new traces recorded, 0 to 1 (a caller's decision is followed). */
  sampleRatio: number;
  serviceName: string;
}

export interface TaskSettings {
  /** Hosts or CIDR ranges that callbacks and media fetches may reach although private (SWITCHYARD_OUTBOUND_ALLOW). */
  outboundAllow: string[];
  /** Callback address for tasks that name none (SWITCHYARD_NOTIFY_HOOK). */
  notifyHook?: string;
  /** Pause of the poll loop when it has nothing to do. */
  tickMs: number;
  /** Wait before the first poll of a new task; it grows by half per poll without news. */
  firstPollMs: number;
  maxPollMs: number;
  /** How long an instance holds a task or callback it took (another instance takes over after). */
  leaseMs: number;
  /** An unfinished task fails and is refunded after this long (per family in the config file: taskTimeouts). */
  timeoutSeconds: number;
  /** First retry delay of a failed final callback; doubles per attempt. */
  callbackRetryMs: number;
  /** The largest file `/v1/files` takes, in bytes. */
  fileMaxBytes: number;
  /** Batch lines one instance runs at once (0: none). */
  batchConcurrency: number;
  /** First wait between two looks at an upstream batch (doubling up to six times it). */
  batchUpstreamPollMs: number;
}

function taskSettingsFromEnv(read: EnvReader): TaskSettings {
  return {
    outboundAllow: read.list('SWITCHYARD_OUTBOUND_ALLOW'),
    notifyHook: read.text('SWITCHYARD_NOTIFY_HOOK'),
    tickMs: read.integer('SWITCHYARD_TASK_TICK_MS'),
    firstPollMs: read.integer('SWITCHYARD_TASK_FIRST_POLL_MS'),
    maxPollMs: read.integer('SWITCHYARD_TASK_MAX_POLL_MS'),
    leaseMs: read.integer('SWITCHYARD_TASK_LEASE_MS'),
    timeoutSeconds: read.integer('SWITCHYARD_TASK_TIMEOUT_SECONDS'),
    callbackRetryMs: read.integer('SWITCHYARD_CALLBACK_RETRY_MS'),
    fileMaxBytes: read.integer('SWITCHYARD_FILE_MAX_BYTES'),
    batchConcurrency: read.integer('SWITCHYARD_BATCH_CONCURRENCY'),
    batchUpstreamPollMs: read.integer('SWITCHYARD_BATCH_UPSTREAM_POLL_MS'),
  };
}

/**
 * Traces are on when an endpoint is named: ours, else the standard
 * OpenTelemetry variables (the exporter itself also reads the standard
 * headers, timeout and TLS variables).
 */
function traceSettingsFromEnv(read: EnvReader, env: NodeJS.ProcessEnv): TraceSettings | undefined {
  const standard = (name: string) => env[name]?.trim() || undefined;
  const base = standard('OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = read.text('SWITCHYARD_OTLP_TRACES_ENDPOINT') ?? standard('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base && `${base.replace(/\/+$/, '')}/v1/traces`);
  if (!endpoint) return undefined;
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    read.problem('SWITCHYARD_OTLP_TRACES_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT) must be an http(s) URL');
    return undefined;
  }
  return {
    endpoint,
    headers: headerPairs(read),
    sampleRatio: read.fraction('SWITCHYARD_TRACE_SAMPLE'),
    serviceName: standard('OTEL_SERVICE_NAME') ?? 'switchyard',
  };
}

/** `name=value` pairs, values percent-decoded as in OTEL_EXPORTER_OTLP_HEADERS. */
function headerPairs(read: EnvReader): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of read.list('SWITCHYARD_OTLP_HEADERS')) {
    const at = entry.indexOf('=');
    const name = at > 0 ? entry.slice(0, at).trim() : '';
    // The entry is not quoted back: it may hold a token.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      read.problem('SWITCHYARD_OTLP_HEADERS must be name=value pairs separated by commas');
      return {};
    }
    const value = entry.slice(at + 1).trim();
    try {
      headers[name] = decodeURIComponent(value);
    } catch {
      headers[name] = value;
    }
  }
  return headers;
}

/**
 * The settings, every variable checked by its entry's rules; a wrong one
 * stops the start (`SettingsError`, naming each wrong variable at once).
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  const read = envReader(env);
  const trustedProxies = read.list('SWITCHYARD_TRUSTED_PROXIES');
  const settings: GatewaySettings = {
    host: read.text('SWITCHYARD_HOST') as string,
    port: read.integer('SWITCHYARD_PORT'),
    dataDir: path.resolve(read.text('SWITCHYARD_DATA_DIR') as string),
    databaseUrl: read.text('SWITCHYARD_DATABASE_URL'),
    databaseSchema: read.text('SWITCHYARD_DATABASE_SCHEMA'),
    sqliteCacheMb: read.integer('SWITCHYARD_SQLITE_CACHE_MB'),
    redisUrl: read.text('SWITCHYARD_REDIS_URL'),
    redisOutage: read.text('SWITCHYARD_REDIS_OUTAGE') as RedisOutagePolicy,
    adminKey: read.text('SWITCHYARD_ADMIN_KEY'),
    configPath: read.text('SWITCHYARD_CONFIG'),
    publicUrl: read.text('SWITCHYARD_PUBLIC_URL')?.replace(/\/+$/, ''),
    secretKey: read.text('SWITCHYARD_SECRET_KEY'),
    logLevel: read.text('SWITCHYARD_LOG_LEVEL') as string,
    trustedProxies: trustedProxies.length > 0 ? trustedProxies : undefined,
    maxBodyBytes: read.integer('SWITCHYARD_MAX_BODY_BYTES'),
    upstreamTimeoutMs: read.integer('SWITCHYARD_UPSTREAM_TIMEOUT_MS'),
    upstreamIdleMs: read.integer('SWITCHYARD_UPSTREAM_IDLE_MS'),
    streamPingMs: read.integer('SWITCHYARD_STREAM_PING_MS'),
    maxUpstreamBodyBytes: read.integer('SWITCHYARD_MAX_UPSTREAM_BODY_BYTES'),
    maxUpstreamStreamBytes: read.integer('SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES'),
    maxUpstreamEventBytes: read.integer('SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES'),
    maxAttempts: read.integer('SWITCHYARD_MAX_ATTEMPTS'),
    cooldownSeconds: read.integer('SWITCHYARD_COOLDOWN_SECONDS'),
    shutdownGraceMs: read.integer('SWITCHYARD_SHUTDOWN_GRACE_MS'),
    refreshIntervalMs: read.integer('SWITCHYARD_REFRESH_MS'),
    simulator: read.onOff('SWITCHYARD_SIMULATOR'),
    priceCatalogue: read.onOff('SWITCHYARD_PRICE_CATALOGUE'),
    sessionAffinity: read.onOff('SWITCHYARD_SESSION_AFFINITY'),
    sessionAffinityIdleSeconds: read.integer('SWITCHYARD_SESSION_AFFINITY_IDLE_SECONDS'),
    sessionAffinityMaxSessions: read.integer('SWITCHYARD_SESSION_AFFINITY_MAX_SESSIONS'),
    responsesWebSocket: read.onOff('SWITCHYARD_RESPONSES_WEBSOCKET'),
    responsesWebSocketIdleMs: read.integer('SWITCHYARD_RESPONSES_WEBSOCKET_IDLE_MS'),
    accessLog: read.onOff('SWITCHYARD_ACCESS_LOG') ?? true,
    metrics: read.onOff('SWITCHYARD_METRICS') ?? true,
    traces: traceSettingsFromEnv(read, env),
    logRetentionDays: read.integer('SWITCHYARD_LOG_RETENTION_DAYS'),
    logMaxRows: read.integer('SWITCHYARD_LOG_MAX_ROWS'),
    auditRetentionDays: read.integer('SWITCHYARD_AUDIT_RETENTION_DAYS'),
    tasks: taskSettingsFromEnv(read),
    sso: ssoFromEnv(read),
    environment: Object.fromEntries(Object.keys(ENV_VARS).flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]]))),
  };
  // A typo'd name is often why a setting looks wrong: name those too.
  if (read.problems.length > 0)
    throw new SettingsError(
      read.problems,
      unknownVariables(env).map((unknown) => unknown.message),
    );
  return settings;
}

export type RedisOutagePolicy = 'closed' | 'open';
