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
  /** Channels tried for one request, first attempt included. */
  maxAttempts: number;
  /** How long a channel whose credentials were refused stays out of rotation. */
  cooldownSeconds: number;
  /** How long SIGTERM waits for in-flight requests and streams. */
  shutdownGraceMs: number;
  /** How often channel and key changes made elsewhere (CLI, other instances) are picked up. */
  refreshIntervalMs: number;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
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
    redisUrl: optional(env.SWITCHYARD_REDIS_URL),
    adminKey: optional(env.SWITCHYARD_ADMIN_KEY),
    configPath: optional(env.SWITCHYARD_CONFIG),
    publicUrl: optional(env.SWITCHYARD_PUBLIC_URL)?.replace(/\/+$/, ''),
    secretKey: optional(env.SWITCHYARD_SECRET_KEY),
    logLevel: optional(env.SWITCHYARD_LOG_LEVEL) ?? 'info',
    maxBodyBytes: integer('SWITCHYARD_MAX_BODY_BYTES', env.SWITCHYARD_MAX_BODY_BYTES, 32 * 1024 * 1024),
    upstreamTimeoutMs: integer('SWITCHYARD_UPSTREAM_TIMEOUT_MS', env.SWITCHYARD_UPSTREAM_TIMEOUT_MS, 120_000),
    maxAttempts: Math.max(1, integer('SWITCHYARD_MAX_ATTEMPTS', env.SWITCHYARD_MAX_ATTEMPTS, 3)),
    cooldownSeconds: integer('SWITCHYARD_COOLDOWN_SECONDS', env.SWITCHYARD_COOLDOWN_SECONDS, 60),
    shutdownGraceMs: integer('SWITCHYARD_SHUTDOWN_GRACE_MS', env.SWITCHYARD_SHUTDOWN_GRACE_MS, 10_000),
    refreshIntervalMs: integer('SWITCHYARD_REFRESH_MS', env.SWITCHYARD_REFRESH_MS, 5_000),
  };
}
