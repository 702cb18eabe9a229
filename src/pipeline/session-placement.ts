/**
 * Session affinity on the chat path: before the failover loop, the session's
 * pinned channel goes first in its tier and its pinned key is used; after an
 * answer, the session is pinned to where it was served. Nothing is derived
 * when there is nothing to choose (one candidate with at most one key): the
 * call then only carries a session named by a header, for upstreams that key
 * their prompt cache by a string.
 */
import type { Channel } from '../core/channel.js';
import type { AttemptTarget } from '../routing/failover.js';
import type { ChannelHealth } from '../routing/health.js';
import { keyFingerprint } from '../routing/health.js';
import { pinnedFirst, type SessionAffinity, type SessionPin } from '../routing/session-affinity.js';
import { headerSessionKey, sessionKeyFor, sessionKeyOf } from './session-key.js';
import type { ChatCall } from './types.js';

export interface SessionPlacement {
  candidates: readonly Channel[];
  /** The pinned key on the pinned channel, while its breaker admits it. */
  keyFor?: (channel: Channel) => string | undefined;
  /** Pins the session to the channel and key that answered. */
  served: (target: AttemptTarget) => void;
}

const noChoice = (candidates: readonly Channel[]): boolean => candidates.length <= 1 && (candidates[0]?.apiKeys.length ?? 0) <= 1;

/**
 * The placement at once (no promise) unless a pin must be asked of the other
 * instances; undefined (nothing allocated) when the candidates stay as they are.
 */
export function placeSession(affinity: SessionAffinity | undefined, health: ChannelHealth, call: ChatCall, candidates: readonly Channel[]): SessionPlacement | undefined | Promise<SessionPlacement> {
  if (affinity === undefined || noChoice(candidates)) {
    call.sessionKey ??= headerSessionKey(call);
    return undefined;
  }
  const session = (call.sessionKey ??= sessionKeyOf(call));
  if (session === undefined) return undefined;
  const served = (target: AttemptTarget) => {
    const pin: SessionPin = { channelId: target.channel.id, key: target.apiKey ? keyFingerprint(target.apiKey) : '' };
    affinity.served(session, pin);
    const alias = call.sessionAlias?.();
    if (alias !== undefined) affinity.served(sessionKeyFor(call.key.record.id, call.model, alias), pin);
  };
  const place = (pin: SessionPin | undefined): SessionPlacement => {
    if (pin === undefined) return { candidates, served };
    return {
      candidates: pinnedFirst(candidates, pin.channelId, health.isHealthy),
      keyFor: (channel) => (channel.id === pin.channelId && pin.key !== '' ? health.admittedKey(channel, pin.key) : undefined),
      served,
    };
  };
  const pinned = affinity.pinned(session);
  return pinned instanceof Promise ? pinned.then(place) : place(pinned);
}
