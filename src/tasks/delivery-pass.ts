/**
 * One callback pass: claim due deliveries under a lease and send them, a few
 * at a time. A final callback that fails is retried with a doubling delay up
 * to its attempt budget; a progress callback is tried once.
 */
import { sendCallback } from './callbacks.js';
import type { DeliveryRecord } from './deliveries.js';
import type { TaskEngine } from './engine.js';

const PARALLEL_SENDS = 16;
const MAX_RETRY_DELAY_MS = 10 * 60_000;

export async function runDeliveryPass(engine: TaskEngine): Promise<number> {
  const { options } = engine;
  // The lease outlasts one send, so a slow receiver is never called twice at once.
  const lease = Math.max(options.leaseMs, options.callbackTimeoutMs * 2);
  const due = await engine.deliveries.claimDue(engine.instanceId, lease, options.batchSize);
  if (due.length === 0) return 0;
  // Deliveries of one task go out in order; different tasks in parallel.
  const byTask = new Map<string, DeliveryRecord[]>();
  for (const delivery of due) {
    const list = byTask.get(delivery.taskId);
    if (list) list.push(delivery);
    else byTask.set(delivery.taskId, [delivery]);
  }
  const queues = [...byTask.values()];
  const workers = Array.from({ length: Math.min(PARALLEL_SENDS, queues.length) }, async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      for (const delivery of queue) await deliver(engine, delivery);
    }
  });
  await Promise.all(workers);
  return due.length;
}

async function deliver(engine: TaskEngine, delivery: DeliveryRecord): Promise<void> {
  const outcome = await sendCallback(engine.guard, delivery.url, delivery.payload, {
    timeoutMs: engine.options.callbackTimeoutMs,
  });
  const attempts = delivery.attempts + 1;
  let retryAt: number | undefined;
  if (!outcome.ok && attempts < delivery.maxAttempts) {
    const delay = Math.min(MAX_RETRY_DELAY_MS, engine.options.callbackRetryMs * 2 ** (attempts - 1));
    retryAt = Date.now() + delay;
  }
  if (!outcome.ok) {
    engine.logger.warn({ taskId: delivery.taskId, event: delivery.event, attempts, error: outcome.error }, 'task callback failed');
  }
  await engine.deliveries.recordAttempt(delivery, engine.instanceId, outcome, retryAt);
}
