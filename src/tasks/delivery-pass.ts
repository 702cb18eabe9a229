/**
 * One callback pass: claim due deliveries under a lease and send them, a few
 * at a time. A final callback that fails is retried with a doubling delay up
 * to its attempt budget; a progress callback is tried once.
 */
import type { Logger } from 'pino';
import { sendCallback } from './callbacks.js';
import type { DeliveryRecord, DeliveryRepository } from './deliveries.js';
import type { OutboundGuard } from './outbound-guard.js';

/** What a callback pass needs from the engine that runs it. */
export interface DeliveryHost {
  readonly instanceId: string;
  readonly options: { leaseMs: number; batchSize: number; callbackTimeoutMs: number; callbackRetryMs: number };
  readonly deliveries: Pick<DeliveryRepository, 'claimDue' | 'recordAttempt'>;
  readonly guard: OutboundGuard;
  readonly logger: Logger;
}

const PARALLEL_SENDS = 16;
const MAX_RETRY_DELAY_MS = 10 * 60_000;

export async function runDeliveryPass(host: DeliveryHost): Promise<number> {
  const { options } = host;
  // The lease outlasts one send, so a slow receiver is never called twice at once.
  const lease = Math.max(options.leaseMs, options.callbackTimeoutMs * 2);
  const due = await host.deliveries.claimDue(host.instanceId, lease, options.batchSize);
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
      for (const delivery of queue) await deliver(host, delivery);
    }
  });
  await Promise.all(workers);
  return due.length;
}

async function deliver(host: DeliveryHost, delivery: DeliveryRecord): Promise<void> {
  const outcome = await sendCallback(host.guard, delivery.url, delivery.payload, {
    timeoutMs: host.options.callbackTimeoutMs,
  });
  const attempts = delivery.attempts + 1;
  let retryAt: number | undefined;
  if (!outcome.ok && attempts < delivery.maxAttempts) {
    const delay = Math.min(MAX_RETRY_DELAY_MS, host.options.callbackRetryMs * 2 ** (attempts - 1));
    retryAt = Date.now() + delay;
  }
  if (!outcome.ok) {
    host.logger.warn({ taskId: delivery.taskId, event: delivery.event, attempts, error: outcome.error }, 'task callback failed');
  }
  await host.deliveries.recordAttempt(delivery, host.instanceId, outcome, retryAt);
}
