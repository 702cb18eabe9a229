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
import { startFileSweeper } from '../families/files/sweeper.js';
import type { AppContext } from '../http/context.js';
import type { AnyTaskUpstream } from '../tasks/types.js';
import { createBatchRunner } from './batch-runner.js';

export interface TaskJobs {
  /** Starts the loops that take work (the batch runner), once the instance serves. */
  start(): void;
  /** Stops the background jobs; the batch runner waits up to `graceMs` for its lines in flight and hands back the rest. */
  stop(graceMs: number): Promise<void>;
}

/** Wires the task side of a gateway instance: its background jobs, started and stopped together. */
export function composeTasks(ctx: AppContext, upstreams: readonly AnyTaskUpstream[]): TaskJobs {
  for (const upstream of upstreams) ctx.tasks.registerUpstream(upstream);
  ctx.tasks.registerFamily(imageTaskFamily);
  const videos = readVideoSettings(ctx.fileConfig);
  ctx.tasks.registerFamily(videoTaskFamily(videos.retentionMs));
  const stopSweeper = startSweeper(ctx, videos.retentionMs);
  const stopImageSweeper = startImageSweeper(ctx, urlExpiryMs(ctx.fileConfig));
  const stopFileSweeper = startFileSweeper(ctx.store, ctx.tasks.media, ctx.logger);
  const batches = createBatchRunner(ctx);
  return {
    start: () => batches.start(),
    async stop(graceMs) {
      stopSweeper();
      stopImageSweeper();
      stopFileSweeper();
      await batches.stop(graceMs);
    },
  };
}
