/**
 * Submitting a video task, the path both request shapes and remix share:
 * authorize the model and limits, price it (per second, by tier), keep the
 * reference image, store the task and its charge in one transaction, hand it
 * to the first channel that takes it (another one on a retryable failure;
 * a remix stays on its parent's channel), record the upstream's answer, log
 * the request. A submission no channel takes fails the task, which refunds it.
 */
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { upstreamModelFor } from '../../core/channel.js';
import type { ClientKey } from '../../http/auth.js';
import { requestLogRow } from '../../billing/log-row.js';
import type { AppContext } from '../../http/context.js';
import type { SubmitOutcome, TaskCall, TaskRecord } from '../../tasks/types.js';
import type { Channel } from '../../core/channel.js';
import { VIDEO_FAMILY, type VideoAction, type VideoSubmitPayload, type VideoTaskRequest, type VideoTaskUpstream } from '../../tasks/video-contract.js';
import { videoCost } from './pricing.js';
import type { VideoSpec } from './validate.js';
import { tryInOrder } from '../../routing/failover.js';

export interface RequestMeta {
  requestId: string;
  clientIp: string;
  startedAt: number;
  /** Base of the absolute URLs handed out (SWITCHYARD_PUBLIC_URL, or the address the client used). */
  publicBase: string;
}

export interface VideoPlan {
  action: VideoAction;
  spec: VideoSpec;
  /** Channels to try, in order (a remix: its parent's only). */
  channels: Channel[];
  parent?: TaskRecord;
  payload?: VideoSubmitPayload;
}

export function videoUpstream(ctx: AppContext, channel: Channel): VideoTaskUpstream {
  const upstream = ctx.tasks.upstream<VideoSubmitPayload>(VIDEO_FAMILY, channel.type);
  if (!upstream) throw new GatewayError('permission', `channel ${channel.name} (type ${channel.type}) cannot run video tasks`);
  return upstream as VideoTaskUpstream;
}

function taskCall(ctx: AppContext, channel: Channel): TaskCall {
  return {
    channel,
    apiKey: ctx.health.nextKey(channel),
    signal: AbortSignal.timeout(ctx.settings.upstreamTimeoutMs + 1_000),
    timeoutMs: ctx.settings.upstreamTimeoutMs,
    countOpen: () => ctx.tasks.tasks.countOpen(channel.id),
    outbound: ctx.tasks.guard,
  };
}

/** Past every attempt the submitting instance may make, so no other instance takes a slow submission for an interrupted one. */
function submissionLeaseMs(ctx: AppContext): number {
  return Math.max(ctx.tasks.options.leaseMs, (ctx.settings.upstreamTimeoutMs + 1_000) * ctx.settings.maxAttempts + 5_000);
}

export async function submitVideoTask(ctx: AppContext, key: ClientKey, plan: VideoPlan, meta: RequestMeta): Promise<TaskRecord> {
  const { spec } = plan;
  const tried: string[] = [];
  let cost = 0;
  let channel: Channel | undefined;
  try {
    ctx.auth.authorize(key, spec.model);
    await ctx.limits.admit(key.record);
    cost = videoCost(ctx.prices, spec.model, spec.tier, spec.seconds);
    const engine = ctx.tasks;
    const { image, ...fields } = spec;
    const request: VideoTaskRequest = { ...fields, publicBase: meta.publicBase };
    if (image) request.inputReference = await engine.media.put({ bytes: image.bytes, contentType: image.contentType, role: 'input' });
    if (plan.parent) request.remixOf = plan.parent.id;
    const task = await engine.tasks.create({
      family: VIDEO_FAMILY,
      action: plan.action,
      keyId: key.record.id,
      channelId: plan.channels[0].id,
      parentId: plan.parent?.id ?? null,
      request: request as unknown as Record<string, unknown>,
      cost,
      timeoutMs: engine.timeoutFor(VIDEO_FAMILY),
      leaseOwner: engine.instanceId,
      leaseMs: submissionLeaseMs(ctx),
    });
    if (cost > 0) ctx.auth.noteSpend(key.record.keyHash, cost);
    const payload: VideoSubmitPayload = { ...plan.payload, ...(image ? { image } : {}) };
    const handed = await handOver(ctx, task, plan.channels, payload, tried).catch(async (error: unknown) => {
      // The client never learns this task's id, so no callback reports it.
      await engine.change(task, { status: 'FAILURE', failReason: `the upstream refused the task: ${toGatewayError(error).message}` }, { notify: false });
      throw error;
    });
    channel = handed.channel;
    const { outcome } = handed;
    const status = outcome.status ?? 'SUBMITTED';
    const now = Date.now();
    const updated = await engine.change(task, {
      status,
      progress: outcome.progress ?? 0,
      channelId: channel.id,
      upstreamId: outcome.upstreamId,
      upstreamData: outcome.upstreamData ?? null,
      startTime: status === 'NOT_START' ? null : (outcome.startTime ?? now),
      nextPollAt: engine.firstPollAt(now),
    });
    if (!updated) throw new GatewayError('internal', `task ${task.id} changed while it was being submitted`);
    log(ctx, key, meta, { model: spec.model, channel, tried, status: 201, cost });
    return updated;
  } catch (thrown) {
    const error = toGatewayError(thrown);
    log(ctx, key, meta, { model: spec.model, channel, tried, status: error.status, cost: 0, error });
    throw error;
  }
}

/** Hands the task to the first channel that takes it; a retryable refusal moves on to the next. */
async function handOver(
  ctx: AppContext,
  task: TaskRecord,
  channels: Channel[],
  payload: VideoSubmitPayload,
  tried: string[],
): Promise<{ outcome: SubmitOutcome; channel: Channel }> {
  const { value, item } = await tryInOrder(
    channels,
    (channel) => channel,
    { maxAttempts: ctx.settings.maxAttempts, health: ctx.health, tried, label: `video task ${task.id}` },
    (channel) => videoUpstream(ctx, channel).submit(task, payload, taskCall(ctx, channel)),
  );
  return { outcome: value, channel: item };
}

interface LogFields {
  model: string;
  channel?: Channel;
  tried: string[];
  status: number;
  cost: number;
  error?: GatewayError;
}

function log(ctx: AppContext, key: ClientKey, meta: RequestMeta, fields: LogFields): void {
  // The charge was written with the task; the log row only reports it.
  ctx.recorder.record(
    requestLogRow({
      requestId: meta.requestId,
      keyId: key.record.id,
      family: VIDEO_FAMILY,
      model: fields.model,
      upstreamModel: fields.channel ? upstreamModelFor(fields.channel, fields.model) : null,
      channelId: fields.channel?.id ?? null,
      triedChannels: fields.tried,
      httpStatus: fields.status,
      errorKind: fields.error?.kind ?? null,
      errorMessage: fields.error?.message ?? null,
      stream: false,
      cost: fields.cost,
      clientIp: meta.clientIp,
      startedAt: meta.startedAt,
    }),
  );
}
