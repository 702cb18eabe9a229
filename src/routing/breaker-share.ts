/**
 * Shares circuit-breaker openings and closings between instances through
 * Redis: the current openings live in one hash (read at start), and each
 * transition is published so the others apply it at once. Failure counting
 * stays per instance; what one instance learns spares the others.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BreakerShare, BreakerTransition, ChannelHealth } from './health.js';

export interface BreakerShareHandle extends BreakerShare {
  close(): void;
}

export async function shareBreakers(health: ChannelHealth, redis: Redis, namespace: string, onError: (error: unknown) => void): Promise<BreakerShareHandle> {
  const origin = randomUUID();
  const hash = `switchyard:breakers:${namespace}`;
  const channel = `switchyard:breaker-events:${namespace}`;
  // Subscribed again on every ready connection by this module, not by ioredis,
  // whose resubscription leaves a rejected promise unhandled (src/storage/change-feed.ts).
  const subscriber = redis.duplicate({ autoResubscribe: false });
  subscriber.on('ready', () => void subscriber.subscribe(channel).catch(onError));
  subscriber.on('error', onError);
  subscriber.on('message', (_channel: string, message: string) => {
    const event = parseEvent(message);
    if (event && event.origin !== origin) health.applyRemote(event.transition);
  });
  await subscriber.subscribe(channel).catch(onError);
  try {
    const now = Date.now();
    for (const [subject, text] of Object.entries(await redis.hgetall(hash))) {
      const transition = parseTransition(subject, text);
      if (transition && transition.openUntil > now) health.applyRemote(transition);
      else await redis.hdel(hash, subject);
    }
  } catch (error) {
    onError(error);
  }
  const share: BreakerShareHandle = {
    publish(transition) {
      const stored = JSON.stringify({ openUntil: transition.openUntil, reason: transition.reason });
      const write = transition.openUntil === 0 ? redis.hdel(hash, transition.subject) : redis.hset(hash, transition.subject, stored);
      write.then(() => redis.publish(channel, JSON.stringify({ origin, ...transition }))).catch(onError);
    },
    close() {
      subscriber.disconnect();
    },
  };
  health.shareWith(share);
  return share;
}

function parseTransition(subject: string, text: string): BreakerTransition | undefined {
  try {
    const value = JSON.parse(text) as { openUntil?: unknown; reason?: unknown };
    if (typeof value.openUntil !== 'number') return undefined;
    return { subject, openUntil: value.openUntil, reason: typeof value.reason === 'string' ? value.reason : '' };
  } catch {
    return undefined;
  }
}

function parseEvent(message: string): { origin: string; transition: BreakerTransition } | undefined {
  try {
    const value = JSON.parse(message) as { origin?: unknown; subject?: unknown; openUntil?: unknown; reason?: unknown };
    if (typeof value.origin !== 'string' || typeof value.subject !== 'string' || typeof value.openUntil !== 'number') return undefined;
    return { origin: value.origin, transition: { subject: value.subject, openUntil: value.openUntil, reason: String(value.reason ?? '') } };
  } catch {
    return undefined;
  }
}
