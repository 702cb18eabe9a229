/**
 * The request log row of an asynchronous family's request (a submission, a
 * follow-up, a read that costs). A task's charge is written with the task, so
 * its row only reports the cost; work without a task asks for `spend`.
 */
import type { Attempt } from '../core/attempt.js';
import { requestLogRow } from '../billing/log-row.js';
import type { Channel } from '../core/channel.js';
import { isLimitRefusal, type GatewayError } from '../core/errors.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import { warnUnpricedOnce } from '../billing/unpriced.js';

export interface TaskRequestMeta {
  requestId: string;
  clientIp: string;
  startedAt: number;
}

export interface TaskLogFields {
  family: string;
  /** The model or routing name the request was admitted under. */
  model: string;
  channel?: Channel;
  /** The model name sent upstream; none when the kind routes by action. */
  upstreamModel?: (channel: Channel) => string;
  attempts: Attempt[];
  status: number;
  cost: number;
  /** What the serving channel's provider charged, when its cost table prices the work. */
  upstreamCost?: number | null;
  /** Done for a model or action priced nowhere: the cost of 0 is not a price (warned about once per model). */
  unpriced?: boolean;
  error?: GatewayError;
  /** Write the cost as spend too (work without a task). */
  spend?: boolean;
}

export function logTaskRequest(ctx: AppContext, key: ClientKey, meta: TaskRequestMeta, fields: TaskLogFields): void {
  const spend = fields.spend && fields.cost > 0 ? { keyId: key.record.id, amount: fields.cost } : undefined;
  const unpriced = fields.unpriced === true && fields.error === undefined;
  if (unpriced) warnUnpricedOnce(ctx.prices, ctx.logger, fields.model);
  const row = requestLogRow({
    requestId: meta.requestId,
    keyId: key.record.id,
    teamId: key.record.teamId,
    userId: key.record.userId,
    family: fields.family,
    model: fields.model,
    upstreamModel: fields.channel && fields.upstreamModel ? fields.upstreamModel(fields.channel) : null,
    channelId: fields.channel?.id ?? null,
    attempts: fields.attempts,
    httpStatus: fields.status,
    errorKind: fields.error?.kind ?? null,
    errorMessage: fields.error?.message ?? null,
    stream: false,
    cost: fields.cost,
    upstreamCost: fields.upstreamCost ?? null,
    unpriced,
    clientIp: meta.clientIp,
    startedAt: meta.startedAt,
  });
  ctx.recorder.record(row, spend);
  ctx.metrics.observe({
    family: fields.family,
    operation: 'task',
    model: fields.model,
    channel: fields.channel?.id ?? 'none',
    status: fields.status,
    durationMs: Date.now() - meta.startedAt,
    inputTokens: 0,
    outputTokens: 0,
    cost: fields.cost,
    keyName: key.record.name,
    teamId: key.record.teamId,
    failovers: Math.max(0, fields.attempts.length - 1),
    limitKind: fields.error && isLimitRefusal(fields.error.kind) ? fields.error.kind : undefined,
  });
  ctx.accessNotes.note(meta.requestId, { key: key.record.name, model: fields.model, channel: fields.channel?.id, attempts: fields.attempts.length });
}
