/**
 * The task engine of one gateway instance: families and upstreams register
 * with it; it applies state changes (compare-and-set, with callbacks queued in
 * the same transaction) and runs the loop that polls due tasks and sends
 * callbacks. Every fact lives in the database, so any instance can carry on
 * the work of another, and a restarted instance simply finds its tasks due.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Store } from '../storage/types.js';
import type { UpstreamLimits } from '../core/upstream-limits.js';
import type { Channel } from '../core/channel.js';
import { DeliveryCadence } from './delivery-cadence.js';
import { DeliveryRepository } from './deliveries.js';
import { runDeliveryPass } from './delivery-pass.js';
import type { MediaStore } from './media.js';
import type { OutboundGuard } from './outbound-guard.js';
import { runPollPass } from './poll-pass.js';
import { TaskRepository } from './repository.js';
import type { NewDelivery, TaskChange } from './task-writes.js';
import { taskDb } from './schema.js';
import { changesStatus, nextPollDelay, project, type PollSchedule } from './transitions.js';
import { isFinal, type AnyTaskUpstream, type TaskFamily, type TaskRecord } from './types.js';

export interface TaskEngineOptions extends PollSchedule {
  /** Pause between two passes of the loop when there was nothing to do. */
  tickMs: number;
  /** How long a claimed task or delivery stays with this instance. */
  leaseMs: number;
  /** Tasks claimed per pass. */
  batchSize: number;
  /** Bound on each upstream exchange made by the loop. */
  upstreamTimeoutMs: number;
  /** Size bounds on upstream answers read by the loop. */
  upstreamLimits?: UpstreamLimits;
  /** Used for tasks without their own notifyHook. */
  globalHook?: string;
  /** Attempts for a final callback (progress callbacks get one). */
  callbackAttempts: number;
  /** First retry delay of a final callback; doubles per attempt. */
  callbackRetryMs: number;
  callbackTimeoutMs: number;
  /** Time an unfinished task may run, unless its family has its own (timeoutsMs). */
  defaultTimeoutMs: number;
  timeoutsMs: Record<string, number>;
}

export interface TaskEngineDeps {
  store: Store;
  media: MediaStore;
  guard: OutboundGuard;
  logger: Logger;
  /** A channel by id, decrypted, or undefined when it no longer exists. */
  channel(id: string): Channel | undefined;
  /** The credential to use for the next call on a channel. */
  nextKey(channel: Channel): string;
  /** Told after a refund committed (to log it and keep in-memory quota views right). */
  onRefund?(task: TaskRecord, model: string): void;
}

export class TaskEngine {
  readonly instanceId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly tasks: TaskRepository;
  readonly deliveries: DeliveryRepository;
  private readonly families = new Map<string, TaskFamily>();
  private readonly upstreams = new Map<string, AnyTaskUpstream>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;
  private readonly abort = new AbortController();
  private readonly cadence: DeliveryCadence;

  constructor(
    readonly options: TaskEngineOptions,
    readonly deps: TaskEngineDeps,
  ) {
    const db = taskDb(deps.store);
    this.tasks = new TaskRepository(db, deps.store.engine);
    this.deliveries = new DeliveryRepository(db, deps.store.engine);
    this.cadence = new DeliveryCadence(options.tickMs);
  }

  get media(): MediaStore {
    return this.deps.media;
  }

  get guard(): OutboundGuard {
    return this.deps.guard;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  /** Aborted when the engine stops: loop work in flight gives up. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** A channel by id, decrypted, or undefined when it no longer exists. */
  channelById(id: string): Channel | undefined {
    return this.deps.channel(id);
  }

  /** The credential to use for the next call on a channel. */
  nextKey(channel: Channel): string {
    return this.deps.nextKey(channel);
  }

  registerFamily(family: TaskFamily): void {
    this.families.set(family.name, family);
  }

  family(name: string): TaskFamily | undefined {
    return this.families.get(name);
  }

  registerUpstream(upstream: AnyTaskUpstream): void {
    this.upstreams.set(`${upstream.kind.family}:${upstream.type}`, upstream);
  }

  upstream(family: string, channelType: string): AnyTaskUpstream | undefined {
    return this.upstreams.get(`${family}:${channelType}`);
  }

  /** How long an unfinished task of this family may run before it fails and is refunded. */
  timeoutFor(family: string): number {
    return this.options.timeoutsMs[family] ?? this.options.defaultTimeoutMs;
  }

  /** Channel types that can run tasks of a family. */
  channelTypes(family: string): Set<string> {
    const types = new Set<string>();
    for (const upstream of this.upstreams.values()) if (upstream.kind.family === family) types.add(upstream.type);
    return types;
  }

  /** When a task just handed to (or changed by) its upstream should first be polled. */
  firstPollAt(now = Date.now(), hintMs?: number): number {
    return now + nextPollDelay(0, this.options, hintMs);
  }

  hookFor(task: TaskRecord): string | undefined {
    return task.notifyHook ?? this.options.globalHook;
  }

  /**
   * Applies a change with compare-and-set. A status change queues a callback
   * (when a hook is set) in the same transaction; a final one settles or
   * refunds the charge. Returns the new record, or undefined if the task had
   * already changed.
   */
  async change(task: TaskRecord, change: TaskChange, options: { notify?: boolean } = {}): Promise<TaskRecord | undefined> {
    const now = Date.now();
    const delivery = options.notify === false ? undefined : this.deliveryFor(task, change, now);
    const updated = await this.tasks.transition(task, change, delivery, now);
    if (updated && delivery) this.cadence.queue();
    if (updated && updated.billing === 'refunded' && task.billing === 'charged' && task.cost > 0) {
      const model = this.families.get(task.family)?.modelOf(task) ?? `${task.family}:${task.action}`;
      this.deps.onRefund?.(updated, model);
    }
    return updated;
  }

  private deliveryFor(task: TaskRecord, change: TaskChange, now: number): NewDelivery | undefined {
    if (!changesStatus(task, change)) return undefined;
    const url = this.hookFor(task);
    const family = this.families.get(task.family);
    if (!url || !family) return undefined;
    const next = project(task, change, now);
    const final = isFinal(next.status);
    return {
      url,
      event: next.status,
      final,
      payload: JSON.stringify(family.render(next)),
      maxAttempts: final ? this.options.callbackAttempts : 1,
    };
  }

  start(): void {
    if (this.timer || this.stopping) return;
    this.schedule(this.options.tickMs);
  }

  /** Stops the loop, waits for the pass in flight, and hands this instance's leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
    await this.running;
    await this.tasks.releaseAll(this.instanceId).catch(() => undefined);
    await this.deliveries.releaseAll(this.instanceId).catch(() => undefined);
    await this.deps.guard.close().catch(() => undefined);
  }

  /** One pass: due tasks, then due callbacks (see DeliveryCadence). Returns how many items were handled. */
  async runOnce(): Promise<number> {
    const polled = await runPollPass(this);
    if (!this.cadence.due(Date.now())) return polled;
    const snapshot = this.cadence.snapshot();
    const delivered = await runDeliveryPass(this);
    this.cadence.ran(snapshot, delivered, Date.now());
    return polled + delivered;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error) => {
          this.logger.error({ err: error }, 'task loop pass failed');
          return 0;
        })
        .then((handled) => {
          this.running = undefined;
          // A full batch means more is waiting: go again at once.
          this.schedule(handled >= this.options.batchSize ? 0 : this.options.tickMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
