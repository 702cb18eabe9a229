/**
 * The routing section of the environment table (`env-vars.ts`): how upstream
 * calls are bounded and retried, session affinity, the simulator and the
 * price catalogue. Kept apart only so that each table stays short; `ENV_VARS`
 * holds these entries in this order.
 */
import type { EnvVarSpec } from './env-var-spec.js';

export const ROUTING_ENV_VARS = {
  SWITCHYARD_UPSTREAM_TIMEOUT_MS: {
    kind: 'integer',
    default: 120_000,
    section: 'routing',
    description: "How long to wait for an upstream's response headers before failing over. The config file's `limits.upstreamTimeoutMs` wins.",
  },
  SWITCHYARD_UPSTREAM_IDLE_MS: {
    kind: 'integer',
    default: 300_000,
    min: 100,
    refuseBelowMin: true,
    section: 'routing',
    description:
      "How long an upstream may stay silent while its answer arrives (between two pieces of a stream, or in a plain answer's body) before the gateway ends the call: before anything reached the client the next channel is tried, after it the stream ends with its error event. The config file's `limits.upstreamIdleMs` wins.",
  },
  SWITCHYARD_STREAM_PING_MS: {
    kind: 'integer',
    default: 10_000,
    section: 'routing',
    description:
      'How long a streamed Messages answer waits for its first event (a slow first token, failover) before the gateway sends Anthropic `ping` events, and then their interval, so that proxies and clients do not end a quiet connection. Once one is sent the status is 200 and a request that fails in the end gets an `error` event instead of an error status; failover to the next channel still happens. 0: never.',
  },
  SWITCHYARD_MAX_UPSTREAM_BODY_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    min: 1,
    refuseBelowMin: true,
    section: 'routing',
    description: "Largest non-streamed upstream answer read, in bytes; a larger one is an upstream failure (the next channel is tried). The config file's `limits.maxUpstreamBodyBytes` wins.",
  },
  SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES: {
    kind: 'integer',
    default: 256 * 1024 * 1024,
    min: 1,
    refuseBelowMin: true,
    section: 'routing',
    description: "Largest streamed upstream answer, all events together; past it the stream ends with the family's error frame. The config file's `limits.maxUpstreamStreamBytes` wins.",
  },
  SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    min: 1,
    refuseBelowMin: true,
    section: 'routing',
    description: "Largest single event of an upstream stream (a Responses terminal event repeats the whole answer). The config file's `limits.maxUpstreamEventBytes` wins.",
  },
  SWITCHYARD_MAX_ATTEMPTS: {
    kind: 'integer',
    default: 3,
    min: 1,
    section: 'routing',
    description: "Channels tried for one request, the first included. The config file's `limits.maxAttempts` wins.",
  },
  SWITCHYARD_COOLDOWN_SECONDS: {
    kind: 'integer',
    default: 60,
    section: 'routing',
    description: "How long a channel whose credentials were refused (401/403) sits out. The config file's `limits.cooldownSeconds` wins.",
  },
  SWITCHYARD_SESSION_AFFINITY: {
    kind: 'on-off',
    defaultText: "the config file's `sessionAffinity.enabled`, else on",
    section: 'routing',
    description:
      "Keeps the turns of one client session on the channel and upstream key that served its last turn, while that channel is a candidate in the top healthy priority tier and the key is not cooling down, so the upstream's prompt cache keeps hitting (see README, Session affinity). A session is named by the agent's session header, `prompt_cache_key`, the conversation a `previous_response_id` continues, `cachedContent`, else a hash of the conversation's stable prefix. `off`: every turn is placed by priority and weight alone. Wins over the config file.",
  },
  SWITCHYARD_SESSION_AFFINITY_IDLE_SECONDS: {
    kind: 'integer',
    default: 3_600,
    min: 1,
    section: 'routing',
    description: "How long a session's pin is kept after its last turn. The config file's `sessionAffinity.idleSeconds` wins.",
  },
  SWITCHYARD_SESSION_AFFINITY_MAX_SESSIONS: {
    kind: 'integer',
    default: 100_000,
    min: 1,
    section: 'routing',
    description:
      "Sessions an instance keeps pins for (about 200 bytes each); beyond, the least recently used is forgotten. With Redis the pins are shared by the instances and expire there after the idle time. The config file's `sessionAffinity.maxSessions` wins.",
  },
  SWITCHYARD_SIMULATOR: {
    kind: 'on-off',
    defaultText: "the config file's `simulator`, else on",
    section: 'routing',
    description:
      'The built-in simulator serves every model and action while no channel of a provider (a type other than `simulator`) is stored, in any state; beside one it serves nothing, whatever this says (`on` then logs a warning: add a channel of type `simulator` listing the models to simulate). `off`: it serves nothing even with no channel. Wins over the config file.',
  },
  SWITCHYARD_PRICE_CATALOGUE: {
    kind: 'on-off',
    defaultText: "the config file's `priceCatalogue`, else on",
    section: 'routing',
    description:
      "The built-in price catalogue (@pydantic/genai-prices, dated; `GET /admin/prices` names its release) prices well-known models the operator priced nowhere; the operator's prices always win. `off`: only the operator's prices count, and a model without one is logged as unpriced. Wins over the config file.",
  },
} as const satisfies Record<string, EnvVarSpec>;
