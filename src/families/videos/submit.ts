/**
 * What a video submission is to the shared task flow (`submitTask`): the
 * model a key must be allowed, its price (per second, by tier), the channels
 * to try (a remix stays on its parent's channel), and the stored request,
 * whose reference image the gateway keeps.
 */
import { upstreamModelFor, type Channel } from '../../core/channel.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { submitTask, type TaskRequestMeta } from '../../pipeline/submit-task.js';
import { taskUpstreamFor } from '../../pipeline/task-calls.js';
import { taskServices } from '../../pipeline/chat-services.js';
import type { TaskRecord } from '../../tasks/types.js';
import { VIDEO_TASKS, type VideoAction, type VideoSubmitPayload, type VideoTaskRequest, type VideoTaskUpstream } from '../../tasks/video-contract.js';
import { videoCost, videoCostAt } from './pricing.js';
import type { VideoSpec } from './validate.js';

export interface VideoRequestMeta extends TaskRequestMeta {
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
  return taskUpstreamFor(ctx, VIDEO_TASKS, 'video', channel) as VideoTaskUpstream;
}

export async function submitVideoTask(ctx: AppContext, key: ClientKey, plan: VideoPlan, meta: VideoRequestMeta): Promise<TaskRecord> {
  const { image, ...fields } = plan.spec;
  const { task } = await submitTask(
    taskServices(ctx),
    key,
    {
      kind: VIDEO_TASKS,
      noun: 'video',
      action: plan.action,
      model: fields.model,
      price: () => videoCost(ctx.prices, fields.model, fields.tier, fields.seconds),
      priceAt: (price) => videoCostAt(price, fields.tier, fields.seconds),
      targets: () => plan.channels.map((channel) => ({ channel })),
      request: async () => {
        const request: VideoTaskRequest = { ...fields, publicBase: meta.publicBase };
        if (image) request.inputReference = await ctx.tasks.media.put({ bytes: image.bytes, contentType: image.contentType, role: 'input' });
        if (plan.parent) request.remixOf = plan.parent.id;
        return request;
      },
      payload: (): VideoSubmitPayload => ({ ...plan.payload, ...(image ? { image } : {}) }),
      parent: plan.parent,
      status: 201,
      upstreamModel: (channel) => upstreamModelFor(channel, fields.model),
    },
    meta,
  );
  return task;
}
