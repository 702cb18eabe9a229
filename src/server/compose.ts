/**
 * The composition root of the asynchronous side: the task families, the task
 * upstreams of every channel type (from the upstream registry) and the
 * background jobs, wired once at start. Routes only serve requests; nothing
 * registers itself as a side effect of being routed to.
 */
import { imageTaskFamily } from '../families/images/family.js';
import { videoTaskFamily } from '../families/videos/family.js';
import { readVideoSettings } from '../families/videos/settings.js';
import { startSweeper } from '../families/videos/sweeper.js';
import { startImageSweeper, urlExpiryMs } from '../families/image-generations/expiry.js';
import type { AppContext } from '../http/context.js';
import type { AnyTaskUpstream } from '../tasks/types.js';

/** Wires the task side of a gateway instance. Returns the stopper of its background jobs. */
export function composeTasks(ctx: AppContext, upstreams: readonly AnyTaskUpstream[]): () => void {
  for (const upstream of upstreams) ctx.tasks.registerUpstream(upstream);
  ctx.tasks.registerFamily(imageTaskFamily);
  const videos = readVideoSettings(ctx.fileConfig);
  ctx.tasks.registerFamily(videoTaskFamily(videos.retentionMs));
  const stopSweeper = startSweeper(ctx, videos.retentionMs);
  const stopImageSweeper = startImageSweeper(ctx, urlExpiryMs(ctx.fileConfig));
  return () => {
    stopSweeper();
    stopImageSweeper();
  };
}
