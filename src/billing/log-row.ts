/** Request-log rows: the fields every family fills, with token counts at zero unless given, and the tried channels named from the attempts. */
import type { RequestLogRow } from '../storage/request-log-types.js';
import { newTimeOrderedId } from '../storage/ids.js';

export type LogRowFields = Omit<
  RequestLogRow,
  | 'id'
  | 'createdAt'
  | 'triedChannels'
  | 'translation'
  | 'attempts'
  | 'inputTokens'
  | 'outputTokens'
  | 'cacheReadTokens'
  | 'cacheWriteTokens'
  | 'reasoningTokens'
  | 'estimated'
  | 'estimatedParts'
  | 'firstByteMs'
  | 'latencyMs'
  | 'upstreamCost'
> &
  Partial<
    Pick<RequestLogRow, 'translation' | 'attempts' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens' | 'estimated' | 'estimatedParts' | 'firstByteMs'>
  > & {
    startedAt: number;
    /** Null (unknown) unless given: only a channel with a cost table knows it. */
    upstreamCost?: number | null;
  };

export function requestLogRow(fields: LogRowFields, now = Date.now()): RequestLogRow {
  const attempts = fields.attempts ?? [];
  // Every field named, in one literal: a spread of the fields over defaults builds a far larger object (one per request).
  return {
    id: newTimeOrderedId('log', now),
    requestId: fields.requestId,
    keyId: fields.keyId,
    teamId: fields.teamId ?? null,
    userId: fields.userId ?? null,
    family: fields.family,
    model: fields.model,
    upstreamModel: fields.upstreamModel,
    channelId: fields.channelId,
    // The channel names are the attempts': one list, written to both columns (older rows have only the names).
    triedChannels: attempts.map((attempt) => attempt.channel),
    httpStatus: fields.httpStatus,
    errorKind: fields.errorKind,
    errorMessage: fields.errorMessage,
    stream: fields.stream,
    inputTokens: fields.inputTokens ?? 0,
    outputTokens: fields.outputTokens ?? 0,
    cacheReadTokens: fields.cacheReadTokens ?? 0,
    cacheWriteTokens: fields.cacheWriteTokens ?? 0,
    cacheWrite1hTokens: fields.cacheWrite1hTokens ?? 0,
    reasoningTokens: fields.reasoningTokens ?? 0,
    // The flag stays for readers of older rows: any part estimated.
    estimated: fields.estimated ?? (fields.estimatedParts !== undefined && fields.estimatedParts.length > 0),
    estimatedParts: fields.estimatedParts ?? [],
    cost: fields.cost,
    upstreamCost: fields.upstreamCost ?? null,
    unpriced: fields.unpriced ?? false,
    latencyMs: now - fields.startedAt,
    firstByteMs: fields.firstByteMs ?? null,
    clientIp: fields.clientIp,
    translation: fields.translation ?? null,
    attempts,
    images: fields.images ?? null,
    createdAt: now,
  };
}
