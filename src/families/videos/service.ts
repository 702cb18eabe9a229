/**
 * The operations behind both request shapes: create (route the model, check
 * every field for its family, submit) and remix (a finished video, a new
 * prompt, the same channel), plus reading a key's own video.
 */
import { GatewayError } from '../../core/errors.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { TaskRecord } from '../../tasks/types.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import type { ShapedInput } from './bodies.js';
import { expiresAtMs, requestOf, resultOf } from './render.js';
import type { VideoSettings } from './settings.js';
import { submitVideoTask, videoUpstream, type VideoRequestMeta } from './submit.js';
import { routeModel } from './targets.js';
import { checkPrompt, validateVideoInput, type VideoSpec } from './validate.js';

export interface VideoContext {
  ctx: AppContext;
  key: ClientKey;
  meta: VideoRequestMeta;
  settings: VideoSettings;
}

export async function createVideo(vc: VideoContext, shaped: ShapedInput): Promise<TaskRecord> {
  const model = shaped.model ?? vc.settings.defaultModel;
  const route = routeModel(vc.ctx, model);
  const spec = validateVideoInput(shaped.input, route.choice);
  return submitVideoTask(vc.ctx, vc.key, { action: 'GENERATE', spec, channels: route.channels }, vc.meta);
}

/** A key's own video; another key's id reads as unknown. */
export async function ownedVideo(vc: VideoContext, id: string): Promise<TaskRecord> {
  const task = /^\d{1,32}$/.test(id) ? await vc.ctx.tasks.tasks.getOwned(id, vc.key.record.id, VIDEO_FAMILY) : undefined;
  if (!task) throw new GatewayError('not_found', `Video not found: ${id}`, { param: 'video_id' });
  return task;
}

export async function remixVideo(vc: VideoContext, parent: TaskRecord, rawPrompt: unknown): Promise<TaskRecord> {
  const prompt = checkPrompt(rawPrompt);
  const expires = expiresAtMs(parent, vc.settings.retentionMs);
  if (parent.status !== 'SUCCESS' || expires === null) {
    throw new GatewayError(
      'invalid_request',
      `video ${parent.id} cannot be remixed: only a completed video can (status ${parent.status === 'SUCCESS' ? 'succeeded' : parent.status === 'FAILURE' ? 'failed' : 'processing'})`,
    );
  }
  if (expires <= Date.now()) throw new GatewayError('invalid_request', `video ${parent.id} cannot be remixed: it expired`);
  const channel = vc.ctx.tasks.channelById(parent.channelId);
  if (!channel) throw new GatewayError('permission', `the channel that made video ${parent.id} is no longer available`);
  if (!videoUpstream(vc.ctx, channel).remixes) {
    throw new GatewayError('unsupported_feature', `remix is not supported by the ${channel.type} upstream that made video ${parent.id}`);
  }
  const { publicBase: _base, inputReference: _input, remixOf: _remixOf, ...inherited } = requestOf(parent);
  const spec: VideoSpec = { ...inherited, prompt };
  const payload = { parent: { upstreamId: parent.upstreamId, request: requestOf(parent), seed: resultOf(parent)?.seed } };
  return submitVideoTask(vc.ctx, vc.key, { action: 'REMIX', spec, channels: [channel], parent, payload }, vc.meta);
}
