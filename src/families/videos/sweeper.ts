/**
 * Removes the files of videos past their retention (reference images of
 * failed ones too), counted from their final change. A watermark in the
 * settings table (the time swept up to) keeps each pass to the newly expired
 * tasks; two instances sweeping the same range only remove the same files
 * twice, which is harmless.
 */
import type { AppContext } from '../../http/context.js';
import { toTaskRecord } from '../../tasks/rows.js';
import { taskDb } from '../../tasks/schema.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import { requestOf, resultOf } from './render.js';

const WATERMARK = 'videos_swept_until';
const BATCH = 500;

export async function sweepExpired(ctx: AppContext, retentionMs: number, now = Date.now()): Promise<number> {
  const from = Number((await ctx.store.settings.get(WATERMARK)) ?? 0);
  const rows = await taskDb(ctx.store)
    .selectFrom('tasks')
    .selectAll()
    .where('family', '=', VIDEO_FAMILY)
    .where('status', 'in', ['SUCCESS', 'FAILURE', 'CANCEL'])
    .where('updated_at', '>', from)
    .where('updated_at', '<=', now - retentionMs)
    .orderBy('updated_at')
    .limit(BATCH)
    .execute();
  if (rows.length === 0) return 0;
  for (const row of rows) {
    const task = toTaskRecord(row);
    const input = requestOf(task).inputReference;
    const refs = [...(resultOf(task)?.media ?? []), ...(input ? [input] : [])];
    await Promise.all(refs.map((ref) => ctx.tasks.media.remove(ref.key).catch(() => undefined)));
  }
  await ctx.store.settings.set(WATERMARK, String(toTaskRecord(rows[rows.length - 1]).updatedAt));
  return rows.length;
}

/** Sweeps now and then (a quarter of the retention, at most every ten minutes). Returns the stopper. */
export function startSweeper(ctx: AppContext, retentionMs: number): () => void {
  const everyMs = Math.min(10 * 60_000, Math.max(1_000, Math.floor(retentionMs / 4)));
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpired(ctx, retentionMs)
      .catch((error) => ctx.logger.warn({ err: error }, 'expired video sweep failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
