/**
 * The encoder thread. Painting and encoding a video takes tens to hundreds of
 * milliseconds of CPU, so it never runs on the event loop: one worker thread
 * takes jobs in turn, started on first use and stopped when idle. The H.264
 * encoder (`h264-mp4-encoder`, x264 compiled to WebAssembly) installs process
 * handlers when it loads; inside the thread they touch nothing of the
 * gateway's, and they are removed anyway.
 *
 * The thread's code is `runJob` as source text, so the same code runs from
 * the TypeScript sources (tests) and the compiled files.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { GatewayError } from '../../../core/errors.js';
import { runJob, type BackdropOutput, type EncoderJob, type RenderOutput, type RenderPlan } from './render-job.js';

const IDLE_MS = 30_000;
const JOB_TIMEOUT_MS = 120_000;

const require = createRequire(import.meta.url);

function threadSource(): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
let modules;
function load() {
  const listeners = { u: process.listeners('uncaughtException'), r: process.listeners('unhandledRejection') };
  const h264 = require(workerData.encoderPath);
  for (const l of process.listeners('uncaughtException')) if (!listeners.u.includes(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!listeners.r.includes(l)) process.off('unhandledRejection', l);
  return { h264, png: require(workerData.pngPath) };
}
// TypeScript runners (tsx, vitest) may wrap named functions in this helper; the compiled code has none.
var __name = (target) => target;
const runJob = ${runJob.toString()};
parentPort.on('message', async ({ id, job }) => {
  try {
    modules ??= load();
    const result = await runJob(job, modules.h264, modules.png);
    // Only whole buffers move; a view into a shared pool is copied out first.
    const keys = ['video', 'thumbnail', 'spritesheet'].filter((k) => result[k]);
    for (const k of keys) if (result[k].byteOffset !== 0 || result[k].byteLength !== result[k].buffer.byteLength) result[k] = new Uint8Array(result[k]);
    const transfer = keys.map((k) => result[k].buffer);
    parentPort.postMessage({ id, result }, transfer);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

class EncoderThread {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer?: NodeJS.Timeout;

  run(job: EncoderJob, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const worker = this.ensure();
    clearTimeout(this.idleTimer);
    worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`the encoder took longer than ${JOB_TIMEOUT_MS / 1000} seconds`)), JOB_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, job }, transfer);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    let encoderPath: string;
    let pngPath: string;
    try {
      encoderPath = require.resolve('h264-mp4-encoder');
      pngPath = require.resolve('pngjs');
    } catch (error) {
      throw new GatewayError('internal', `the video encoder is not installed (h264-mp4-encoder): ${(error as Error).message}`);
    }
    const worker = new Worker(threadSource(), { eval: true, workerData: { encoderPath, pngPath } });
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => this.settle(message));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(new Error('the encoder thread stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private settle(message: { id: number; result?: unknown; error?: string }): void {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    this.pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.error !== undefined) entry.reject(new Error(message.error));
    else entry.resolve(message.result);
    this.whenIdle();
  }

  /** Rejects every job in flight and drops the thread (the next job starts a new one). */
  private fail(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(error);
      this.pending.delete(id);
    }
    if (worker) void worker.terminate();
  }

  private whenIdle(): void {
    if (this.pending.size > 0 || !this.worker) return;
    this.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) this.fail(new Error('idle'));
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

const thread = new EncoderThread();

function encoderError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  // Not retryable: the same job fails the same way, so the task fails with this reason.
  return new GatewayError('internal', `the video encoder failed: ${(error as Error).message}`);
}

export async function renderVideo(plan: RenderPlan): Promise<RenderOutput> {
  try {
    return (await thread.run({ kind: 'render', plan })) as RenderOutput;
  } catch (error) {
    throw encoderError(error);
  }
}

/** A 16x16 RGB backdrop of a PNG image, or null for other formats. */
export async function backdropOf(bytes: Buffer): Promise<number[] | null> {
  try {
    const copy = new Uint8Array(bytes);
    return ((await thread.run({ kind: 'backdrop', bytes: copy }, [copy.buffer as ArrayBuffer])) as BackdropOutput).backdrop;
  } catch (error) {
    throw encoderError(error);
  }
}
