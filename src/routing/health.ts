/**
 * Channel health: a circuit breaker per channel and per upstream key.
 *
 * - A key the upstream refused (401/403) opens at once for the cool-down; a
 *   429 opens that key for the `retry-after` it gave (else the cool-down).
 * - Other retryable failures (5xx, timeouts, connection errors) count against
 *   the channel: five in a row, or half of at least ten of the last twenty
 *   outcomes, open it for the cool-down.
 * - When the cool-down ends the breaker is half-open: one request probes it;
 *   success closes it, failure opens it again.
 * - A channel whose every key is open is skipped like an open channel.
 *
 * Counting is per instance; an opening or closing is shared with the other
 * instances through a `BreakerShare` when Redis is configured, so one
 * instance's discovery spares the others their failed attempts.
 */
import { createHash } from 'node:crypto';
import type { Channel } from '../core/channel.js';
import type { GatewayError } from '../core/errors.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

/** An opening or closing, as shared between instances. `subject` is a channel id, or `channelId#keyFingerprint`. */
export interface BreakerTransition {
  subject: string;
  openUntil: number;
  reason: string;
}

export interface BreakerShare {
  publish(transition: BreakerTransition): void;
}

export interface BreakerSnapshot {
  state: BreakerState;
  openUntil: number | null;
  reason: string | null;
  consecutiveFailures: number;
  recentOutcomes: number;
  recentFailures: number;
  recentErrors: { at: number; message: string }[];
  /** Per upstream key, by position and a fingerprint (never the key). */
  keys: { index: number; fingerprint: string; state: BreakerState; openUntil: number | null; reason: string | null }[];
}

const CONSECUTIVE_TO_OPEN = 5;
const WINDOW = 20;
const MIN_OUTCOMES_FOR_RATE = 10;
const FAILURE_RATE_TO_OPEN = 0.5;
const RECENT_ERRORS_KEPT = 5;

/** How long a half-open breaker waits for its probe's outcome before letting another request probe. */
const PROBE_WINDOW_MS = 10_000;

interface Breaker {
  openUntil: number;
  reason: string | null;
  /** Half-open: a probe went out; others wait until this time for its outcome. */
  probeUntil: number;
  consecutive: number;
  outcomes: boolean[];
  errors: { at: number; message: string }[];
}

const newBreaker = (): Breaker => ({ openUntil: 0, reason: null, probeUntil: 0, consecutive: 0, outcomes: [], errors: [] });

const fingerprints = new Map<string, string>();

/** Identifies an upstream key without revealing it. */
export function keyFingerprint(apiKey: string): string {
  let fingerprint = fingerprints.get(apiKey);
  if (fingerprint === undefined) {
    if (fingerprints.size >= 10_000) fingerprints.clear();
    fingerprint = createHash('sha256').update(apiKey).digest('hex').slice(0, 8);
    fingerprints.set(apiKey, fingerprint);
  }
  return fingerprint;
}

export class ChannelHealth {
  private readonly breakers = new Map<string, Breaker>();
  /** Channels with a key breaker, so the common case (none) costs one lookup. */
  private readonly channelsWithKeyBreakers = new Set<string>();
  private readonly keyCursor = new Map<string, number>();
  private share?: BreakerShare;

  constructor(private readonly cooldownMs: number) {}

  /** Shares transitions with the other instances (see routing/breaker-share.ts). */
  shareWith(share: BreakerShare): void {
    this.share = share;
  }

  isHealthy = (channel: Channel): boolean => {
    const now = Date.now();
    const breaker = this.breakers.get(channel.id);
    if (breaker && !this.admits(breaker, now)) return false;
    if (channel.apiKeys.length === 0 || !this.channelsWithKeyBreakers.has(channel.id)) return true;
    return channel.apiKeys.some((key) => this.keyAdmits(channel, key, now));
  };

  /** The next key of the channel, round-robin over the keys not open. */
  nextKey(channel: Channel): string {
    const keys = channel.apiKeys;
    if (keys.length === 0) return '';
    const now = Date.now();
    const cursor = this.keyCursor.get(channel.id) ?? 0;
    for (let step = 0; step < keys.length; step++) {
      const index = (cursor + step) % keys.length;
      if (this.keyAdmits(channel, keys[index], now)) {
        this.keyCursor.set(channel.id, (index + 1) % keys.length);
        return keys[index];
      }
    }
    this.keyCursor.set(channel.id, (cursor + 1) % keys.length);
    return keys[cursor % keys.length];
  }

  /** The channel's key with this fingerprint while its breaker admits it (a session's pinned key), else undefined. */
  admittedKey(channel: Channel, fingerprint: string): string | undefined {
    const now = Date.now();
    for (const key of channel.apiKeys) {
      if (keyFingerprint(key) !== fingerprint) continue;
      return !this.channelsWithKeyBreakers.has(channel.id) || this.keyAdmits(channel, key, now) ? key : undefined;
    }
    return undefined;
  }

  succeeded(channel: Channel, apiKey?: string): void {
    const breaker = this.breaker(channel.id);
    pushOutcome(breaker, true);
    breaker.consecutive = 0;
    if (breaker.openUntil !== 0) {
      breaker.probeUntil = 0;
      breaker.openUntil = 0;
      breaker.reason = null;
      this.share?.publish({ subject: channel.id, openUntil: 0, reason: 'probe succeeded' });
    }
    // Only a channel with a key breaker has one to close (no subject built per request otherwise).
    if (apiKey && this.channelsWithKeyBreakers.has(channel.id)) {
      const subject = keySubject(channel, apiKey);
      const key = this.breakers.get(subject);
      if (key && key.openUntil !== 0) {
        this.breakers.delete(subject);
        this.share?.publish({ subject, openUntil: 0, reason: 'probe succeeded' });
      }
    }
  }

  failed(channel: Channel, error: GatewayError, apiKey?: string): void {
    const now = Date.now();
    const status = error.upstreamStatus;
    if (apiKey && (status === 401 || status === 403 || status === 429)) {
      const ms = status === 429 && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : this.cooldownMs;
      const reason = status === 429 ? 'rate limited by the upstream' : `credentials refused (${status})`;
      this.open(keySubject(channel, apiKey), now + ms, reason);
      // A channel without keys of its own to rotate to is what was refused.
      if (channel.apiKeys.length > 1 || status === 429) return;
    }
    const breaker = this.breaker(channel.id);
    breaker.consecutive++;
    pushOutcome(breaker, false);
    breaker.errors.push({ at: now, message: error.message.slice(0, 200) });
    if (breaker.errors.length > RECENT_ERRORS_KEPT) breaker.errors.shift();
    const failures = breaker.outcomes.filter((ok) => !ok).length;
    const byRate = breaker.outcomes.length >= MIN_OUTCOMES_FOR_RATE && failures / breaker.outcomes.length >= FAILURE_RATE_TO_OPEN;
    const refused = status === 401 || status === 403;
    const probing = breaker.openUntil !== 0;
    if (probing || refused || breaker.consecutive >= CONSECUTIVE_TO_OPEN || byRate) {
      const reason = refused ? `credentials refused (${status})` : probing ? 'probe failed' : `${breaker.consecutive} consecutive failures or ${failures} of the last ${breaker.outcomes.length}`;
      this.open(channel.id, now + this.cooldownMs, reason);
    }
  }

  /** Applies a transition another instance shared. */
  applyRemote(transition: BreakerTransition): void {
    if (transition.openUntil === 0) {
      const breaker = this.breakers.get(transition.subject);
      if (breaker) Object.assign(breaker, { openUntil: 0, reason: null, probeUntil: 0, consecutive: 0 });
      return;
    }
    const breaker = this.breaker(transition.subject);
    breaker.openUntil = Math.max(breaker.openUntil, transition.openUntil);
    breaker.reason = transition.reason;
    breaker.probeUntil = 0;
    this.noteKeySubject(transition.subject);
  }

  /** Closes every breaker (or one channel's): an operator's reset. */
  reset(channelId?: string): void {
    for (const [subject, breaker] of [...this.breakers]) {
      if (channelId !== undefined && subject !== channelId && !subject.startsWith(`${channelId}#`)) continue;
      this.breakers.delete(subject);
      if (breaker.openUntil !== 0) this.share?.publish({ subject, openUntil: 0, reason: 'reset by the operator' });
    }
    if (channelId === undefined) this.channelsWithKeyBreakers.clear();
    else this.channelsWithKeyBreakers.delete(channelId);
  }

  snapshot(channel: Channel): BreakerSnapshot {
    const now = Date.now();
    const breaker = this.breakers.get(channel.id) ?? newBreaker();
    return {
      state: stateOf(breaker, now),
      openUntil: breaker.openUntil || null,
      reason: breaker.reason,
      consecutiveFailures: breaker.consecutive,
      recentOutcomes: breaker.outcomes.length,
      recentFailures: breaker.outcomes.filter((ok) => !ok).length,
      recentErrors: [...breaker.errors],
      keys: channel.apiKeys.map((key, index) => {
        const keyBreaker = this.breakers.get(keySubject(channel, key)) ?? newBreaker();
        return { index, fingerprint: keyFingerprint(key), state: stateOf(keyBreaker, now), openUntil: keyBreaker.openUntil || null, reason: keyBreaker.reason };
      }),
    };
  }

  /** Kept for callers that only know a channel's credentials were refused. */
  coolDown(channel: Channel): void {
    this.open(channel.id, Date.now() + this.cooldownMs, 'cooling down');
  }

  private open(subject: string, until: number, reason: string): void {
    const breaker = this.breaker(subject);
    breaker.openUntil = until;
    breaker.reason = reason;
    breaker.probeUntil = 0;
    this.noteKeySubject(subject);
    this.share?.publish({ subject, openUntil: until, reason });
  }

  private noteKeySubject(subject: string): void {
    const hash = subject.indexOf('#');
    if (hash > 0) this.channelsWithKeyBreakers.add(subject.slice(0, hash));
  }

  private breaker(subject: string): Breaker {
    let breaker = this.breakers.get(subject);
    if (!breaker) this.breakers.set(subject, (breaker = newBreaker()));
    return breaker;
  }

  /** Closed admits; open refuses until its time; then half-open admits one probe at a time. */
  private admits(breaker: Breaker, now: number): boolean {
    if (breaker.openUntil === 0) return true;
    if (breaker.openUntil > now) return false;
    if (breaker.probeUntil > now) return false;
    breaker.probeUntil = now + PROBE_WINDOW_MS;
    return true;
  }

  private keyAdmits(channel: Channel, apiKey: string, now: number): boolean {
    const breaker = this.breakers.get(keySubject(channel, apiKey));
    return breaker === undefined || breaker.openUntil <= now;
  }
}

function keySubject(channel: Channel, apiKey: string): string {
  return `${channel.id}#${keyFingerprint(apiKey)}`;
}

function pushOutcome(breaker: Breaker, ok: boolean): void {
  breaker.outcomes.push(ok);
  if (breaker.outcomes.length > WINDOW) breaker.outcomes.shift();
}

function stateOf(breaker: Breaker, now: number): BreakerState {
  if (breaker.openUntil === 0) return 'closed';
  return breaker.openUntil > now ? 'open' : 'half_open';
}
