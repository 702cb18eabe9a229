/**
 * Removes files past their `expires_after` (rows first, then their bytes),
 * now and then. Two instances sweeping at once take different rows: each
 * deletes the rows it read, and only what it deleted is removed from the media store.
 */
import type { Logger } from 'pino';
import { FileRepository } from '../../storage/files.js';
import type { Store } from '../../storage/types.js';
import type { MediaStore } from '../../tasks/media.js';

const BATCH = 500;
const EVERY_MS = 60_000;

export async function sweepExpiredFiles(store: Store, media: MediaStore, now = Date.now()): Promise<number> {
  const files = new FileRepository(store);
  let swept = 0;
  for (;;) {
    const expired = await files.takeExpired(now, BATCH);
    await Promise.all(expired.map((file) => media.remove(file.mediaKey).catch(() => undefined)));
    swept += expired.length;
    if (expired.length < BATCH) return swept;
  }
}

/** Sweeps every minute. Returns the stopper. */
export function startFileSweeper(store: Store, media: MediaStore, logger: Logger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpiredFiles(store, media)
      .catch((error: unknown) => logger.warn({ err: error }, 'expired file sweep failed'))
      .finally(() => {
        running = false;
      });
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
