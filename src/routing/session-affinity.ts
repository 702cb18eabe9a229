/**
 * Session affinity: the turns of one client session go to the channel and
 * upstream key that served its last turn, so the upstream's prompt cache
 * (kept per key, by prefix) keeps hitting. A pin is only a preference: the
 * pinned channel goes first within its priority tier while it is a candidate
 * and healthy, and its key is used while that key's breaker is closed;
 * otherwise selection runs as usual and the session moves to wherever it is
 * served.
 *
 * Pins live in a bounded map, least recently used first out, each forgotten
 * after an idle period. With a `SessionShare` (Redis, in a cluster) a local
 * miss asks the other instances' pins once, and a change is written there
 * without waiting, so a session moving between instances keeps its channel.
 */
import type { Channel } from '../core/channel.js';

/** Where a session was last served: a channel, and its key by fingerprint ('' for a channel without keys). Never the key itself. */
export interface SessionPin {
  channelId: string;
  key: string;
}

/** The pins of the other instances (see routing/session-share.ts). */
export interface SessionShare {
  /** The shared pin, or undefined (none, or the share did not answer in time: never an error). */
  get(session: string): Promise<SessionPin | undefined>;
  /** Written in the background; a failure is the share's to report. */
  set(session: string, pin: SessionPin, idleMs: number): void;
}

export interface SessionAffinityOptions {
  maxSessions: number;
  idleMs: number;
  share?: SessionShare;
  now?: () => number;
}

interface Entry {
  channelId: string;
  key: string;
  usedAt: number;
  /** When the share last got this pin (0: never): it is written again past half the idle time, so it outlives local use. */
  sharedAt: number;
}

export class SessionAffinity {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly options: SessionAffinityOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The session's pin: at once from this instance's map, else (with a share) once the share answered. */
  pinned(session: string): SessionPin | undefined | Promise<SessionPin | undefined> {
    const entry = this.local(session);
    if (entry) return entry;
    return this.options.share?.get(session).then((pin) => {
      // Remembered as shared: the next turn here costs no lookup, and no write either.
      if (pin) this.store(session, pin, this.now());
      return pin;
    });
  }

  /** Notes where a session's turn was served; the share hears of a change (or a pin it has not seen for a while). */
  served(session: string, pin: SessionPin): void {
    const now = this.now();
    const entry = this.local(session);
    if (entry && entry.channelId === pin.channelId && entry.key === pin.key && now - entry.sharedAt < this.options.idleMs / 2) return;
    this.store(session, pin, now);
    this.options.share?.set(session, pin, this.options.idleMs);
  }

  /** Forgets every pin (an operator's reset, tests). */
  clear(): void {
    this.entries.clear();
  }

  private local(session: string): Entry | undefined {
    const entry = this.entries.get(session);
    if (!entry) return undefined;
    const now = this.now();
    if (now - entry.usedAt > this.options.idleMs) {
      this.entries.delete(session);
      return undefined;
    }
    entry.usedAt = now;
    // Re-inserted to be the most recently used: the map's order is the eviction order.
    this.entries.delete(session);
    this.entries.set(session, entry);
    return entry;
  }

  private store(session: string, pin: SessionPin, sharedAt: number): void {
    this.entries.delete(session);
    this.entries.set(session, { channelId: pin.channelId, key: pin.key, usedAt: this.now(), sharedAt });
    if (this.entries.size > this.options.maxSessions) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * The candidates with the pinned channel first within its priority tier,
 * when it is one of them and healthy: affinity replaces the weighted draw
 * inside a tier, never the tiers' order, so a session served by a backup
 * tier during an outage returns to the preferred tier when it recovers.
 * `ordered` is `orderCandidates`' answer (healthy channels first, tiers in
 * order, so a healthy channel's tier is one run of the list).
 */
export function pinnedFirst(ordered: readonly Channel[], channelId: string, isHealthy: (channel: Channel) => boolean): readonly Channel[] {
  const index = ordered.findIndex((channel) => channel.id === channelId);
  if (index <= 0) return ordered;
  const pinned = ordered[index];
  if (!isHealthy(pinned)) return ordered;
  let start = index;
  while (start > 0 && ordered[start - 1].priority === pinned.priority) start--;
  if (start === index) return ordered;
  return [...ordered.slice(0, start), pinned, ...ordered.slice(start, index), ...ordered.slice(index + 1)];
}
