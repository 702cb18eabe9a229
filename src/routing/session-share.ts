/**
 * Session pins shared between instances through Redis: one string per
 * session (`channelId key-fingerprint`) that expires after the idle period.
 * A lookup waits a short, fixed time and a Redis that is away is not asked
 * at all: without an answer the request is routed as if the session were
 * new, never failed.
 */
import type { Redis } from 'ioredis';
import type { SessionPin, SessionShare } from './session-affinity.js';

/** How long a lookup may hold a request that this instance has no pin for. */
export const SESSION_LOOKUP_TIMEOUT_MS = 100;

export function redisSessionShare(redis: Redis, namespace: string, onError: (error: unknown) => void): SessionShare {
  const prefix = `switchyard:sessions:${namespace}:`;
  return {
    get(session) {
      // A client that is not connected would queue the command: the request does not wait for a reconnection.
      if (redis.status !== 'ready') return Promise.resolve(undefined);
      return new Promise<SessionPin | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), SESSION_LOOKUP_TIMEOUT_MS);
        redis.get(prefix + session).then(
          (text) => {
            clearTimeout(timer);
            resolve(parsePin(text));
          },
          (error: unknown) => {
            clearTimeout(timer);
            onError(error);
            resolve(undefined);
          },
        );
      });
    },
    set(session, pin, idleMs) {
      if (redis.status !== 'ready') return;
      redis.set(prefix + session, `${pin.channelId} ${pin.key}`, 'PX', idleMs).catch(onError);
    },
  };
}

function parsePin(text: string | null): SessionPin | undefined {
  if (!text) return undefined;
  const space = text.indexOf(' ');
  if (space <= 0) return undefined;
  return { channelId: text.slice(0, space), key: text.slice(space + 1) };
}
