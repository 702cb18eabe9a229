/** Request-log rows: the fields every family fills, with token counts at zero unless given, and the tried channels named from the attempts. */
import type { RequestLogRow } from '../storage/types.js';
import { newTimeOrderedId } from '../storage/ids.js';

export type LogRowFields = Omit<RequestLogRow, 'id' | 'createdAt' | 'triedChannels' | 'translation' | 'attempts' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens' | 'estimated' | 'firstByteMs' | 'latencyMs'> &
  Partial<Pick<RequestLogRow, 'translation' | 'attempts' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens' | 'estimated' | 'firstByteMs'>> & {
    startedAt: number;
  };

export function requestLogRow(fields: LogRowFields, now = Date.now()): RequestLogRow {
  const { startedAt, ...rest } = fields;
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    firstByteMs: null,
    translation: null,
    attempts: [],
    ...rest,
    // The channel names are the attempts': one list, written to both columns (older rows have only the names).
    triedChannels: (rest.attempts ?? []).map((attempt) => attempt.channel),
    id: newTimeOrderedId('log', now),
    latencyMs: now - startedAt,
    createdAt: now,
  };
}
