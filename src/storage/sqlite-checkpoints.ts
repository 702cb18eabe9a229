/**
 * WAL checkpoints on a thread of their own. By default SQLite checkpoints
 * inside the commit that grows the WAL past 1,000 pages: that commit copies
 * the pages back and fsyncs, 4–9 ms during which the event loop serves
 * nothing (the p99 of every request, and of task reads under polling). Here
 * the gateway's connection never checkpoints; a worker thread with its own
 * connection runs a PASSIVE checkpoint every second, which waits for no
 * reader or writer. The worker starts a second after the database opens, so
 * a short-lived store (the CLI, a test) never pays for a thread. If it cannot
 * start, the connection checkpoints as before.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import type { Logger } from 'pino';

const START_AFTER_MS = 1_000;
const INTERVAL_MS = 1_000;
/** After a checkpoint lets SQLite start the WAL over, it is cut back to this size. */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** SQLite's own default, restored when the worker is not there. */
const INLINE_CHECKPOINT_PAGES = 1_000;

/**
 * The worker, as code rather than a file: the gateway ships as one bundled
 * script, and this needs nothing but the driver, whose path it is given.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error && error.message)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface BackgroundCheckpoints {
  /** Stops the worker (the connection's own close then checkpoints what is left). */
  stop(): Promise<void>;
}

export interface CheckpointOptions {
  logger?: Pick<Logger, 'warn'>;
  /** Defaults: a second each. */
  startAfterMs?: number;
  intervalMs?: number;
}

export function checkpointInBackground(connection: SqliteDatabase.Database, file: string, options: CheckpointOptions = {}): BackgroundCheckpoints {
  const { logger, startAfterMs = START_AFTER_MS, intervalMs = INTERVAL_MS } = options;
  connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  connection.pragma('wal_autocheckpoint = 0');
  let worker: { thread: Worker; exited: Promise<unknown> } | undefined;
  let stopped = false;
  const inline = (reason: string) => {
    logger?.warn({ reason }, 'SQLite checkpoints run inline');
    if (!stopped && connection.open) connection.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
  };
  const starter = setTimeout(() => {
    let thread: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      // It holds a few objects: a small heap keeps its memory to what a thread costs (about 8 MB).
      const resourceLimits = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, stackSizeMb: 1 };
      thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs }, resourceLimits });
    } catch (error) {
      inline((error as Error).message);
      return;
    }
    // Not events.once: that rejects on 'error', and a failed start is handled below.
    worker = { thread, exited: new Promise((resolve) => thread.once('exit', resolve)) };
    thread.unref();
    thread.on('message', (message: string) => logger?.warn({ reason: message }, 'SQLite checkpoint failed'));
    thread.once('error', (error) => inline(error.message));
  }, startAfterMs);
  starter.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(starter);
      const running = worker;
      worker = undefined;
      if (!running) return;
      running.thread.postMessage('stop');
      // A checkpoint in flight finishes first; a stuck one is not waited for long.
      const timer = setTimeout(() => void running.thread.terminate(), 5_000);
      await running.exited;
      clearTimeout(timer);
    },
  };
}
