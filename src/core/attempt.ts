/**
 * One try of one channel, as the request log keeps it: which channel, how it
 * ended and how long it took. The failover loop fills a list of these; the
 * console shows it as a request's attempts.
 */
export interface Attempt {
  /** Channel name (names survive a channel's deletion in old rows better than ids read). */
  channel: string;
  channelId: string;
  /** Epoch ms when the attempt started. */
  at: number;
  durationMs: number;
  /** The status the attempt ended with (200 on success), null when no answer came (a connect error, a cancel). */
  status: number | null;
  errorKind: string | null;
  message: string | null;
}

import { GatewayError } from './errors.js';

/** Longest message kept per attempt: enough to say why, bounded so a log row stays small. */
const MAX_MESSAGE = 500;

/** The attempt on `channel` begun at `startedAt`, ended now: a success, or the error it ended with. */
export function endedAttempt(channel: { id: string; name: string }, startedAt: number, error?: unknown): Attempt {
  const durationMs = Date.now() - startedAt;
  // Plain literals, not a spread of a shared part: V8 gives a spread-then-extended object a far larger backing store.
  if (error === undefined) return { channel: channel.name, channelId: channel.id, at: startedAt, durationMs, status: 200, errorKind: null, message: null };
  const known = error instanceof GatewayError ? error : undefined;
  const message = known?.message ?? 'unexpected error';
  return {
    channel: channel.name,
    channelId: channel.id,
    at: startedAt,
    durationMs,
    status: known?.upstreamStatus ?? known?.status ?? null,
    errorKind: known?.kind ?? 'internal',
    // Only a gateway error's own message: an unexpected error's text may carry runtime detail.
    message: message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE)}…`,
  };
}
