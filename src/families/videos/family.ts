/**
 * What family B is to the task engine: how its tasks render (callbacks send
 * the video object) and the model name they are logged and priced under.
 * The composition root registers it; the upstreams that run video tasks come
 * from the upstream registry.
 */
import type { TaskFamily } from '../../tasks/types.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import { renderVideo, requestOf } from './render.js';

export function videoTaskFamily(retentionMs: number): TaskFamily {
  return {
    name: VIDEO_FAMILY,
    render: (task) => renderVideo(task, { retentionMs }),
    modelOf: (task) => requestOf(task).model,
  };
}
