/**
 * Gateway settings from the environment. The SWITCHYARD_* names are the
 * operator contract (see README); defaults give the embedded single-machine
 * setup (SQLite under ./data, the built-in simulator).
 */
import path from 'node:path';

export interface GatewaySettings {
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL switches storage from SQLite to PostgreSQL. */
  databaseUrl?: string;
  /** PostgreSQL schema to work in (created if missing); default: the connection's search path. */
  databaseSchema?: string;
  /** Redis for rate-limit counters shared by many instances; memory when unset. */
  redisUrl?: string;
  adminKey?: string;
  configPath?: string;
  publicUrl?: string;
  /** Encrypts upstream credentials at rest; generated into the data dir when unset. */
  secretKey?: string;
  logLevel: string;
  /** Largest request body accepted, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Time to wait for an upstream's response headers before failing over. */
  upstreamTimeoutMs: number;
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
   * Whether the built-in simulator serves what no configured channel serves
   * (SWITCHYARD_SIMULATOR=on|off); unset: the config file's `simulator`, else on.
   */
  simulator?: boolean;
  /** The durable task engine (image and video tasks) and its callbacks. */
  tasks: TaskSettings;
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
}

function taskSettingsFromEnv(env: NodeJS.ProcessEnv): TaskSettings {
  return {
    outboundAllow: (optional(env.SWITCHYARD_OUTBOUND_ALLOW) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean),
    notifyHook: optional(env.SWITCHYARD_NOTIFY_HOOK),
    tickMs: Math.max(1, integer('SWITCHYARD_TASK_TICK_MS', env.SWITCHYARD_TASK_TICK_MS, 500)),
    firstPollMs: integer('SWITCHYARD_TASK_FIRST_POLL_MS', env.SWITCHYARD_TASK_FIRST_POLL_MS, 2_000),
    maxPollMs: integer('SWITCHYARD_TASK_MAX_POLL_MS', env.SWITCHYARD_TASK_MAX_POLL_MS, 30_000),
    leaseMs: Math.max(100, integer('SWITCHYARD_TASK_LEASE_MS', env.SWITCHYARD_TASK_LEASE_MS, 30_000)),
    timeoutSeconds: Math.max(1, integer('SWITCHYARD_TASK_TIMEOUT_SECONDS', env.SWITCHYARD_TASK_TIMEOUT_SECONDS, 3_600)),
    callbackRetryMs: integer('SWITCHYARD_CALLBACK_RETRY_MS', env.SWITCHYARD_CALLBACK_RETRY_MS, 1_000),
  };
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

/** A bound of 0 would refuse every answer. */
function positive(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback);
  if (parsed === 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

const MiB = 1024 * 1024;

function onOff(name: string, value: string | undefined): boolean | undefined {
  const word = optional(value)?.toLowerCase();
  if (word === undefined) return undefined;
  if (['on', 'true', '1', 'yes'].includes(word)) return true;
  if (['off', 'false', '0', 'no'].includes(word)) return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  const port = integer('SWITCHYARD_PORT', env.SWITCHYARD_PORT, 8080);
  if (port > 65535) throw new Error(`SWITCHYARD_PORT must be at most 65535, got ${port}`);
  return {
    host: optional(env.SWITCHYARD_HOST) ?? '127.0.0.1',
    port,
    dataDir: path.resolve(optional(env.SWITCHYARD_DATA_DIR) ?? './data'),
    databaseUrl: optional(env.SWITCHYARD_DATABASE_URL),
    databaseSchema: optional(env.SWITCHYARD_DATABASE_SCHEMA),
    redisUrl: optional(env.SWITCHYARD_REDIS_URL),
    adminKey: optional(env.SWITCHYARD_ADMIN_KEY),
    configPath: optional(env.SWITCHYARD_CONFIG),
    publicUrl: optional(env.SWITCHYARD_PUBLIC_URL)?.replace(/\/+$/, ''),
    secretKey: optional(env.SWITCHYARD_SECRET_KEY),
    logLevel: optional(env.SWITCHYARD_LOG_LEVEL) ?? 'info',
    maxBodyBytes: integer('SWITCHYARD_MAX_BODY_BYTES', env.SWITCHYARD_MAX_BODY_BYTES, 32 * 1024 * 1024),
    upstreamTimeoutMs: integer('SWITCHYARD_UPSTREAM_TIMEOUT_MS', env.SWITCHYARD_UPSTREAM_TIMEOUT_MS, 120_000),
    maxUpstreamBodyBytes: positive('SWITCHYARD_MAX_UPSTREAM_BODY_BYTES', env.SWITCHYARD_MAX_UPSTREAM_BODY_BYTES, 32 * MiB),
    maxUpstreamStreamBytes: positive('SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES', env.SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES, 256 * MiB),
    maxUpstreamEventBytes: positive('SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES', env.SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES, 32 * MiB),
    maxAttempts: Math.max(1, integer('SWITCHYARD_MAX_ATTEMPTS', env.SWITCHYARD_MAX_ATTEMPTS, 3)),
    cooldownSeconds: integer('SWITCHYARD_COOLDOWN_SECONDS', env.SWITCHYARD_COOLDOWN_SECONDS, 60),
    shutdownGraceMs: integer('SWITCHYARD_SHUTDOWN_GRACE_MS', env.SWITCHYARD_SHUTDOWN_GRACE_MS, 10_000),
    refreshIntervalMs: integer('SWITCHYARD_REFRESH_MS', env.SWITCHYARD_REFRESH_MS, 5_000),
    simulator: onOff('SWITCHYARD_SIMULATOR', env.SWITCHYARD_SIMULATOR),
    tasks: taskSettingsFromEnv(env),
  };
}
