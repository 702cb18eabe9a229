/**
 * The services the chat pipeline uses, and nothing else of the gateway:
 * authorization and limits, the quota hold, candidate channels and their
 * adapters, failover settings and channel health, the upstream call for one
 * attempt, the reasoning sealer, the logger and the settlement. Built once
 * per gateway from its context; tests build their own with fake adapters.
 */
import type { CallSignal } from '../core/call-signal.js';
import type { InFlightCalls } from '../core/in-flight.js';
import type { Logger } from 'pino';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { Channel } from '../core/channel.js';
import { ReasoningSealer } from '../core/reasoning-state.js';
import { CallStateMemo } from '../core/call-state-memo.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import type { AttemptTarget } from '../routing/failover.js';
import type { ChannelHealth } from '../routing/health.js';
import type { SessionAffinity } from '../routing/session-affinity.js';
import type { KeyRecord } from '../storage/types.js';
import type { UpstreamAdapter, UpstreamCall } from '../upstreams/types.js';
import { holdQuota } from './quota-hold.js';
import { settle, type SettleInput } from './settle.js';
import { chatCandidates, upstreamCallFor } from './upstream-call.js';

export interface ChatServices {
  /** Throws when the key may not use the model (or has spent its quota). */
  authorize(key: ClientKey, model: string): void;
  /** Counts the request against the key's rate limits; throws when over. Undefined for a key without limits. */
  admit(key: KeyRecord): Promise<void> | undefined;
  /** Holds the request's possible cost against the key's quota; undefined (not a promise) without a quota. */
  holdQuota(key: ClientKey, model: string, request: { inputBytes: number; body?: Record<string, unknown> }): Promise<QuotaHold | undefined> | undefined;
  /** Channels that may serve the model, in the order to try them. */
  candidates(model: string): Channel[];
  adapter(type: string): UpstreamAdapter;
  readonly maxAttempts: number;
  /** How long a streamed answer's first piece is awaited before keep-alive frames are sent, and their interval; 0: never. */
  readonly streamPingMs: number;
  readonly health: ChannelHealth;
  /** Keeps a session's turns on one channel and key; undefined when the operator turned it off. */
  readonly affinity?: SessionAffinity;
  upstreamCall(target: AttemptTarget, request: { requestId: string; headers: UpstreamCall['clientHeaders']; sessionKey?: string }, signal: CallSignal): UpstreamCall;
  readonly sealer: ReasoningSealer;
  /** Calls' sealed state, for clients that send a call back without it. */
  readonly callStates: CallStateMemo;
  readonly logger: Logger;
  /** Settles the request: usage completed and priced, the log row and spend recorded, the hold released. */
  settle(input: SettleInput): void;
  /** The calls running on this instance, which shutdown ends when its grace period is over. */
  readonly inFlight: InFlightCalls;
}

const built = new WeakMap<AppContext, ChatServices>();

/** Agent sessions' calls for an hour, within 32 MiB of text (a sealed Gemini signature is one to a few kilobytes). */
const CALL_STATE_LIMITS = { maxEntries: 20_000, maxChars: 32 * 1024 * 1024, ttlMs: 60 * 60_000 };

/** The gateway's own services, built once per context (no allocation per request). */
export function chatServices(ctx: AppContext): ChatServices {
  let services = built.get(ctx);
  if (!services) {
    services = {
      authorize: (key, model) => ctx.auth.authorize(key, model),
      admit: (key) => ctx.limits.admit(key),
      holdQuota: (key, model, request) => holdQuota(ctx, key, model, request),
      candidates: (model) => chatCandidates(ctx, model),
      adapter: (type) => ctx.adapters.get(type),
      get maxAttempts() {
        return ctx.settings.maxAttempts;
      },
      get streamPingMs() {
        return ctx.settings.streamPingMs;
      },
      health: ctx.health,
      affinity: ctx.affinity,
      upstreamCall: (target, request, signal) => upstreamCallFor(ctx, target, request, signal),
      sealer: ReasoningSealer.of(ctx.secrets),
      callStates: new CallStateMemo(CALL_STATE_LIMITS),
      logger: ctx.logger,
      settle: (input) => void settle(ctx, input),
      inFlight: ctx.inFlight,
    };
    built.set(ctx, services);
  }
  return services;
}
