/**
 * Every SWITCHYARD_* environment variable the gateway reads, in one table:
 * its kind, default, bounds and meaning. `env.ts` parses through this table
 * and `docs/reference.md` is generated from it (`npm run docs:reference`), so
 * the parser and the reference cannot drift. A new variable is one entry
 * here plus one line in `settingsFromEnv`. What an entry may say is
 * `EnvVarSpec` (`env-var-spec.ts`); the routing section's entries are in
 * `env-vars-routing.ts`, the single sign-on section's in `env-vars-sso.ts`; the variables only the tests read are in
 * `test-env-vars.ts`.
 */

import type { EnvVarSpec } from './env-var-spec.js';
import { ROUTING_ENV_VARS } from './env-vars-routing.js';
import { SSO_ENV_VARS } from './env-vars-sso.js';

export const ENV_VARS = {
  SWITCHYARD_HOST: { kind: 'host', default: '127.0.0.1', section: 'server', description: 'Listen address: an IP address (`0.0.0.0`: every interface) or a host name of this machine.' },
  SWITCHYARD_PORT: { kind: 'integer', default: 8080, max: 65535, section: 'server', description: 'Listen port (0: any free port).' },
  SWITCHYARD_PUBLIC_URL: {
    kind: 'url',
    schemes: ['http', 'https'],
    defaultText: 'the address the client used',
    section: 'server',
    description: 'Base URL for the absolute links the gateway hands out (image and video addresses); a trailing slash is dropped.',
  },
  SWITCHYARD_ADMIN_KEY: {
    kind: 'string',
    minLength: 16,
    secret: true,
    defaultText: 'generated at first start',
    section: 'server',
    description: 'The admin credential. When unset, one is generated at first start, printed once and only its hash stored (a lost one is replaced with `switchyard admin-key rotate`).',
  },
  SWITCHYARD_CONFIG: {
    kind: 'file',
    section: 'server',
    description: 'A YAML or JSON config file, applied at every start; it owns only the fields it changes (see "Config file" below).',
  },
  SWITCHYARD_TRUSTED_PROXIES: {
    kind: 'list',
    addresses: true,
    defaultText: "the config file's `trustedProxies`, else none",
    section: 'server',
    description:
      'Addresses or CIDR ranges (IPv4, IPv6) of the reverse proxies whose `X-Forwarded-For` is believed, e.g. `10.0.0.5,fd00::/8`. The client address (key `allowIps`, the access and request logs) is then the rightmost `X-Forwarded-For` entry that is not a trusted proxy; from these proxies `X-Forwarded-Proto` and `X-Forwarded-Host` are believed too. Wins over the config file.',
  },
  ...SSO_ENV_VARS,
  SWITCHYARD_ACCESS_LOG: {
    kind: 'on-off',
    defaultText: 'on',
    section: 'observability',
    description:
      'One structured access-log line per request on stdout (method, path, status, duration, request id, client address, key name, model, channel, attempts), at level `info`; `off` writes none.',
  },
  SWITCHYARD_METRICS: {
    kind: 'on-off',
    defaultText: 'on',
    section: 'observability',
    description: 'Prometheus metrics at `GET /metrics` (admin key); `off` records none and answers that path 404.',
  },
  SWITCHYARD_OTLP_TRACES_ENDPOINT: {
    kind: 'url',
    schemes: ['http', 'https'],
    defaultText: '`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, else off',
    section: 'observability',
    description:
      'Turns OpenTelemetry traces on: one span per request, sent as OTLP/HTTP JSON to this full URL (e.g. `http://collector:4318/v1/traces`). The service is named `switchyard`, or `OTEL_SERVICE_NAME`. Unset: the OpenTelemetry SDK is not even loaded.',
  },
  SWITCHYARD_OTLP_HEADERS: {
    kind: 'list',
    secret: true,
    section: 'observability',
    description:
      'Headers sent with every trace export, as `name=value` pairs separated by commas (values may be percent-encoded), e.g. `authorization=Bearer%20abc`; added to the standard `OTEL_EXPORTER_OTLP_HEADERS`, winning on the same name.',
  },
  SWITCHYARD_TRACE_SAMPLE: {
    kind: 'fraction',
    default: 1,
    section: 'observability',
    description: "The share of traces started here that are recorded (`0.1`: one in ten); a request that arrives with a `traceparent` follows its caller's sampling decision.",
  },
  SWITCHYARD_LOG_LEVEL: {
    kind: 'string',
    default: 'info',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    section: 'server',
    description: 'pino log level.',
  },
  SWITCHYARD_MAX_BODY_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    section: 'server',
    description: "Largest request body accepted, in bytes; larger bodies get 413. The config file's `limits.maxBodyBytes` wins.",
  },
  SWITCHYARD_SHUTDOWN_GRACE_MS: {
    kind: 'integer',
    default: 10_000,
    section: 'server',
    description: "On SIGTERM, how long in-flight requests and streams may finish; a stream still running then is ended with its family's error frame, logged and charged for what was delivered.",
  },

  SWITCHYARD_DATA_DIR: {
    kind: 'string',
    default: './data',
    section: 'storage',
    description: 'The SQLite file, the generated secret key file and stored media (relative to the working directory).',
  },
  SWITCHYARD_SQLITE_CACHE_MB: {
    kind: 'integer',
    default: 2,
    min: 1,
    section: 'storage',
    description:
      "SQLite's page cache, in MB (SQLite's own default). The driver's build would let it grow to 16 MB with the log's indexes; reads beyond it come from the operating system's file cache.",
  },
  SWITCHYARD_DATABASE_URL: {
    kind: 'url',
    schemes: ['postgres', 'postgresql'],
    secret: true,
    defaultText: 'SQLite in the data directory',
    section: 'storage',
    description: 'A `postgres://` (or `postgresql://`) URL switches storage from SQLite to PostgreSQL; any other scheme stops the start.',
  },
  SWITCHYARD_DATABASE_SCHEMA: {
    kind: 'string',
    // As storage checks it before quoting it into statements.
    pattern: { test: /^[A-Za-z_][A-Za-z0-9_]{0,62}$/, means: 'a PostgreSQL schema name: letters, digits and _, not starting with a digit, at most 63 characters' },
    section: 'storage',
    description: "PostgreSQL schema to work in (created if missing); default: the connection's search path.",
  },
  SWITCHYARD_REDIS_URL: {
    kind: 'url',
    schemes: ['redis', 'rediss'],
    secret: true,
    section: 'storage',
    description: 'Redis shared by the instances: rate-limit counters, quota holds, circuit-breaker openings, change notifications; each instance on its own when unset.',
  },
  SWITCHYARD_REDIS_OUTAGE: {
    kind: 'string',
    default: 'closed',
    values: ['closed', 'open'],
    section: 'storage',
    description:
      "What keys with limits get while Redis cannot be reached: `closed` refuses them with a 503 (shared limits are never exceeded); `open` falls back to each instance's own counters (a limit then holds per instance) and logs a warning. Keys without limits never touch Redis.",
  },
  SWITCHYARD_SECRET_KEY: {
    kind: 'string',
    weakBelow: 32,
    secret: true,
    defaultText: '`secret.key` in the data directory, generated for a new database',
    section: 'storage',
    description:
      "Encrypts upstream credentials at rest (AES-256-GCM). Set the same value on every instance that shares a PostgreSQL database, and for the CLI; generate one with `openssl rand -hex 32` (an example's placeholder is refused, a value under 32 characters is warned about at start). The database records the key's fingerprint: a process with another key, or a data directory restored without its `secret.key`, seals nothing and serves none of the channels that key sealed (no new key is generated over them). Change it with `switchyard secret-key rotate`.",
  },
  SWITCHYARD_LOG_RETENTION_DAYS: {
    kind: 'integer',
    default: 0,
    section: 'storage',
    description: 'Request-log rows older than this many days are deleted (hourly, oldest first, in small batches); 0 keeps every age. Key spend is kept on the keys either way.',
  },
  SWITCHYARD_AUDIT_RETENTION_DAYS: {
    kind: 'integer',
    default: 365,
    section: 'storage',
    description: 'Audit-log entries (administrative changes, `GET /admin/audit`) older than this many days are deleted, hourly with the request log; 0 keeps every age.',
  },
  SWITCHYARD_LOG_MAX_ROWS: { kind: 'integer', default: 0, section: 'storage', description: 'At most about this many request-log rows are kept (the oldest beyond go, hourly); 0 keeps any number.' },
  SWITCHYARD_REFRESH_MS: {
    kind: 'integer',
    default: 5_000,
    section: 'storage',
    description:
      "How often channel, key and price changes made elsewhere are picked up; other instances' admin changes also arrive at once by notification (Redis, or PostgreSQL without it), the CLI's with this refresh.",
  },

  ...ROUTING_ENV_VARS,
  SWITCHYARD_RESPONSES_WEBSOCKET: {
    kind: 'on-off',
    defaultText: "the config file's `responsesWebSocket`, else on",
    section: 'server',
    description:
      "The Responses WebSocket transport on `GET /v1/responses` (one `response.create` message per turn over a long-lived socket, the mode Codex's built-in OpenAI provider uses). `off`: the handshake is answered `426` in the OpenAI error shape, from which Codex falls back to HTTP at once, without retrying. Wins over the config file.",
  },
  SWITCHYARD_RESPONSES_WEBSOCKET_IDLE_MS: {
    kind: 'integer',
    default: 1_800_000,
    min: 1_000,
    section: 'server',
    description:
      "How long a Responses WebSocket may stay without a turn (between the end of one answer and the next `response.create`) before the gateway closes it (code 1000); agents' long tool runs happen in that gap. A running turn is never cut by it. The server pings every open socket every 30 s so that proxies keep it open.",
  },
  SWITCHYARD_OUTBOUND_ALLOW: {
    kind: 'list',
    section: 'tasks',
    description: 'Comma-separated hosts or CIDR ranges that callbacks and media fetches may reach although private (e.g. `127.0.0.1,10.0.0.0/8,hooks.internal`).',
  },
  SWITCHYARD_NOTIFY_HOOK: { kind: 'url', schemes: ['http', 'https'], section: 'tasks', description: "Callback address for tasks that name none; wins over the config file's `notifyHook`." },
  SWITCHYARD_TASK_TICK_MS: { kind: 'integer', default: 500, min: 1, section: 'tasks', description: 'Pause of the task loop when it has nothing to do.' },
  SWITCHYARD_TASK_FIRST_POLL_MS: { kind: 'integer', default: 2_000, section: 'tasks', description: 'Wait before the first poll of a new or changed task; it grows by half per poll without news.' },
  SWITCHYARD_TASK_MAX_POLL_MS: { kind: 'integer', default: 30_000, section: 'tasks', description: 'The longest wait between two polls of one task.' },
  SWITCHYARD_TASK_LEASE_MS: {
    kind: 'integer',
    default: 30_000,
    min: 100,
    section: 'tasks',
    description: 'How long an instance holds a task or callback it took; another instance takes over after.',
  },
  SWITCHYARD_TASK_TIMEOUT_SECONDS: {
    kind: 'integer',
    default: 3_600,
    min: 1,
    section: 'tasks',
    description: 'An unfinished task fails and is refunded after this long (per family in the config file: `taskTimeouts`).',
  },
  SWITCHYARD_FILE_MAX_BYTES: {
    kind: 'integer',
    default: 209_715_200,
    min: 1,
    section: 'tasks',
    description: 'The largest file `POST /v1/files` takes (default 200 MB, as OpenAI takes for a batch input); a larger one is a 413 naming this setting.',
  },
  SWITCHYARD_BATCH_CONCURRENCY: {
    kind: 'integer',
    default: 4,
    min: 0,
    section: 'tasks',
    description:
      'Batch lines one instance runs at once at most (0: this instance runs none, others do). Below it, the pace yields to interactive traffic: no new line while interactive requests arrive or run (one every 250–300 ms as a floor), one more every 100 ms while the instance is idle (docs/batches.md).',
  },
  SWITCHYARD_BATCH_UPSTREAM_POLL_MS: {
    kind: 'integer',
    default: 10_000,
    min: 10,
    section: 'tasks',
    description:
      "First wait between two looks at a batch handed to an upstream's own Batch API (docs/batches.md); it doubles per look up to six times this. Also the first retry delay when that upstream does not answer.",
  },
  SWITCHYARD_CALLBACK_RETRY_MS: { kind: 'integer', default: 1_000, section: 'tasks', description: 'First retry delay of a failed final callback; doubles per attempt, 6 attempts in all.' },
} as const satisfies Record<string, EnvVarSpec>;

export type EnvVarName = keyof typeof ENV_VARS;
