/**
 * Plugs family B into the task engine: how its tasks render (callbacks send
 * the video object), the model name they are logged and priced under, and
 * the upstreams that run them.
 */
import type { TaskEngine } from '../../tasks/engine.js';
import { openAiVideosUpstream } from '../../upstreams/openai-videos/index.js';
import { videoSimulator } from '../../upstreams/simulator/videos/index.js';
import { wanUpstream } from '../../upstreams/wan/index.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import { renderVideo, requestOf } from './render.js';

export function registerVideoFamily(engine: TaskEngine, retentionMs: number): void {
  engine.registerFamily({
    name: VIDEO_FAMILY,
    render: (task) => renderVideo(task, { retentionMs }),
    modelOf: (task) => requestOf(task).model,
  });
  engine.registerUpstream(videoSimulator);
  engine.registerUpstream(openAiVideosUpstream);
  engine.registerUpstream(wanUpstream);
}
