/**
 * Builds the task engine of a gateway instance from its settings: local media
 * under the data directory, the outbound guard, channels from the registry,
 * and refunds reflected in the key cache at once.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { GatewaySettings } from '../config/env.js';
import { DEFAULT_SIMULATOR_CHANNEL, type ChannelRegistry } from '../routing/channel-registry.js';
import type { ChannelHealth } from '../routing/health.js';
import type { KeyAuthenticator } from '../http/auth.js';
import type { QuotaLedger } from '../billing/quota/ledger.js';
import type { BudgetIndex } from '../billing/budgets/budget-index.js';
import { refundBudgets } from '../pipeline/quota-hold.js';
import type { UsageRecorder } from '../billing/usage-recorder.js';
import { newTimeOrderedId } from '../storage/ids.js';
import type { RequestLogRow } from '../storage/request-log-types.js';
import type { Store } from '../storage/types.js';
import { upstreamLimits } from '../core/upstream-limits.js';
import { TaskEngine } from '../tasks/engine.js';
import { LocalMediaStore } from '../tasks/media.js';
import { OutboundGuard } from '../tasks/outbound-guard.js';
import type { TaskRecord } from '../tasks/types.js';

export interface TaskEngineInput {
  settings: GatewaySettings;
  store: Store;
  channels: ChannelRegistry;
  logger: Logger;
  /** Read lazily: these are built beside the engine. */
  services: () => { auth: KeyAuthenticator; health: ChannelHealth; recorder: UsageRecorder; quota: QuotaLedger; budgets: BudgetIndex };
  /** From the config file; the environment's hook wins. */
  notifyHook?: string;
  /** Seconds per family, from the config file. */
  taskTimeouts?: Record<string, number>;
}

/** Attempts of a final callback (and of a budget alert, sent the same way). */
export const CALLBACK_ATTEMPTS = 6;

export function createTaskEngine(input: TaskEngineInput): TaskEngine {
  const { settings, store, channels, logger } = input;
  const tasks = settings.tasks;
  return new TaskEngine(
    {
      tickMs: tasks.tickMs,
      firstPollMs: tasks.firstPollMs,
      maxPollMs: Math.max(tasks.maxPollMs, tasks.firstPollMs),
      leaseMs: tasks.leaseMs,
      // Claiming is one synchronous statement on SQLite: 200 rows held the event loop ~3 ms, 50 hold it under 1.
      batchSize: 50,
      upstreamTimeoutMs: Math.min(settings.upstreamTimeoutMs, 60_000),
      upstreamLimits: upstreamLimits(settings),
      globalHook: tasks.notifyHook ?? input.notifyHook,
      callbackAttempts: CALLBACK_ATTEMPTS,
      callbackRetryMs: tasks.callbackRetryMs,
      callbackTimeoutMs: 10_000,
      defaultTimeoutMs: tasks.timeoutSeconds * 1000,
      timeoutsMs: Object.fromEntries(Object.entries(input.taskTimeouts ?? {}).map(([family, s]) => [family, s * 1000])),
    },
    {
      store,
      media: new LocalMediaStore(path.join(settings.dataDir, 'media')),
      guard: new OutboundGuard(tasks.outboundAllow),
      logger,
      // The built-in simulator has no row: it stays reachable for its tasks even after channels are configured.
      channel: (id) => channels.all().find((channel) => channel.id === id) ?? (id === DEFAULT_SIMULATOR_CHANNEL.id ? DEFAULT_SIMULATOR_CHANNEL : undefined),
      nextKey: (channel) => input.services().health.nextKey(channel),
      onRefund: (task, model) => {
        const services = input.services();
        services.recorder.record(refundLogRow(task, model));
        void services.quota.adjust(task.keyId, -task.cost);
        store.keys
          .get(task.keyId)
          .then((key) => {
            if (!key) return;
            services.auth.noteSpend(key.keyHash, -task.cost);
            refundBudgets(services, key, task.cost, task.createdAt);
          })
          .catch((error) => logger.warn({ err: error }, 'refund not reflected in the key cache'));
      },
    },
  );
}

/**
 * A refund is logged as its own row with a negative cost, so usage summaries
 * (which add up request logs) match what keys were really charged.
 */
function refundLogRow(task: TaskRecord, model: string): RequestLogRow {
  const now = Date.now();
  return {
    id: newTimeOrderedId('log', now),
    requestId: `refund:${task.id}`,
    translation: null,
    keyId: task.keyId,
    // The team and user the task was submitted for, as its charge's row has them.
    teamId: task.teamId ?? null,
    userId: task.userId ?? null,
    family: task.family,
    model,
    upstreamModel: null,
    channelId: task.channelId,
    triedChannels: [],
    attempts: [],
    httpStatus: 200,
    errorKind: null,
    errorMessage: `refund of task ${task.id}: ${task.failReason ?? task.status}`,
    stream: false,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cost: -task.cost,
    // The refund gives the client's money back; what the provider kept is not known here.
    upstreamCost: null,
    latencyMs: now - task.submitTime,
    firstByteMs: null,
    clientIp: null,
    createdAt: now,
  };
}
