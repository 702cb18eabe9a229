/**
 * `url` answers of `/v1/images/*` expire, as OpenAI's do (60 minutes unless
 * the config file's `imageGenerations.urlExpirySeconds` says otherwise; 0
 * keeps them). The expiry is written into the media key, so the address
 * answers 404 from then on without a lookup (tasks/media.ts); each key is
 * also kept in `expiring_media` with its time, and a sweeper removes the
 * files past it and their rows. Two instances sweeping the same rows only
 * remove the same files twice, which is harmless. Family A's task images
 * are not stored this way and keep their lifetime.
 */
import type { Kysely } from 'kysely';
import type { ConfigFile } from '../../config/file.js';
import type { AppContext } from '../../http/context.js';
import type { Store } from '../../storage/types.js';

export const DEFAULT_URL_EXPIRY_SECONDS = 3600;
const BATCH = 500;

interface ExpiringMediaTable {
  media_key: string;
  expires_at: number;
}

type ExpiryDb = Kysely<{ expiring_media: ExpiringMediaTable }>;

const expiryDb = (store: Store): ExpiryDb => store.db as ExpiryDb;

/** Milliseconds a `url` answer stays downloadable; 0: kept. */
export function urlExpiryMs(fileConfig: ConfigFile | undefined): number {
  return (fileConfig?.imageGenerations?.urlExpirySeconds ?? DEFAULT_URL_EXPIRY_SECONDS) * 1000;
}

/** Notes a stored answer's key and when it expires, for the sweeper. */
export async function noteExpiring(store: Store, key: string, expiresAt: number): Promise<void> {
  await expiryDb(store).insertInto('expiring_media').values({ media_key: key, expires_at: expiresAt }).execute();
}

/** Removes the files of answers past their expiry, and their rows; returns how many. */
export async function sweepExpiredImages(ctx: Pick<AppContext, 'store' | 'tasks'>, now = Date.now()): Promise<number> {
  const db = expiryDb(ctx.store);
  const rows = await db.selectFrom('expiring_media').select('media_key').where('expires_at', '<=', now).orderBy('expires_at').limit(BATCH).execute();
  if (rows.length === 0) return 0;
  const keys = rows.map((row) => row.media_key);
  await Promise.all(keys.map((key) => ctx.tasks.media.remove(key).catch(() => undefined)));
  await db.deleteFrom('expiring_media').where('media_key', 'in', keys).execute();
  return rows.length;
}

/** Sweeps now and then (a quarter of the expiry, from a second to ten minutes apart); nothing when answers are kept. Returns the stopper. */
export function startImageSweeper(ctx: AppContext, expiryMs: number): () => void {
  if (expiryMs <= 0) return () => {};
  const everyMs = Math.min(10 * 60_000, Math.max(1_000, Math.floor(expiryMs / 4)));
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpiredImages(ctx)
      .catch((error) => ctx.logger.warn({ err: error }, 'expired image sweep failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
