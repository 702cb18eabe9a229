/**
 * Builds task engines straight on a test store, with a scripted upstream whose
 * tasks follow a timeline and which records every poll (to catch two
 * instances polling one task at once).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { TaskEngine, type TaskEngineOptions } from '../../src/tasks/engine.js';
import { LocalMediaStore } from '../../src/tasks/media.js';
import { OutboundGuard } from '../../src/tasks/outbound-guard.js';
import type { NewTask } from '../../src/tasks/repository.js';
import { defineTaskKind } from '../../src/tasks/task-kind.js';
import type { AnyTaskUpstream, JsonObject, Observation, TaskCall, TaskRecord, TaskUpstream } from '../../src/tasks/types.js';
import type { Store } from '../../src/storage/types.js';
import type { Channel } from '../../src/core/channel.js';

export const testChannel: Channel = {
  id: 'chan_test',
  name: 'test-channel',
  type: 'scripted',
  baseUrl: '',
  apiKeys: ['secret'],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  settings: {},
};

export const quickOptions: TaskEngineOptions = {
  tickMs: 10,
  firstPollMs: 10,
  maxPollMs: 40,
  leaseMs: 2_000,
  batchSize: 50,
  upstreamTimeoutMs: 2_000,
  callbackAttempts: 3,
  callbackRetryMs: 20,
  callbackTimeoutMs: 1_000,
  defaultTimeoutMs: 10_000,
  timeoutsMs: {},
};

/** An upstream whose tasks finish `steps` polls after submission; `fail` makes them fail. */
export class ScriptedUpstream implements TaskUpstream<JsonObject, JsonObject, void> {
  readonly kind = defineTaskKind<JsonObject, JsonObject>('test');
  readonly type = 'scripted';
  readonly maxPollBatch = 10;
  polls = new Map<string, number>();
  inFlight = new Map<string, number>();
  overlaps = 0;
  pollCalls = 0;
  pollDelayMs = 0;
  failPolls = false;

  constructor(
    private readonly steps = 3,
    private readonly fail = false,
  ) {}

  async submit(task: TaskRecord): Promise<{ upstreamId: string }> {
    return { upstreamId: `up-${task.id}` };
  }

  async poll(tasks: TaskRecord[], _call: TaskCall): Promise<Map<string, Observation>> {
    this.pollCalls++;
    for (const task of tasks) {
      const now = (this.inFlight.get(task.id) ?? 0) + 1;
      this.inFlight.set(task.id, now);
      if (now > 1) this.overlaps++;
    }
    try {
      if (this.pollDelayMs) await new Promise((resolve) => setTimeout(resolve, this.pollDelayMs));
      if (this.failPolls) throw new Error('upstream is down');
      const out = new Map<string, Observation>();
      for (const task of tasks) {
        const count = (this.polls.get(task.id) ?? 0) + 1;
        this.polls.set(task.id, count);
        if (count >= this.steps) {
          const fail = this.fail || task.request.fail === true;
          out.set(task.id, fail ? { status: 'FAILURE', progress: 0, failReason: 'scripted failure' } : { status: 'SUCCESS', progress: 100, result: { done: true } });
        } else {
          out.set(task.id, { status: 'IN_PROGRESS', progress: Math.round((count / this.steps) * 100) });
        }
      }
      return out;
    } finally {
      for (const task of tasks) this.inFlight.set(task.id, (this.inFlight.get(task.id) ?? 1) - 1);
    }
  }

  async fetchMedia(): Promise<Array<{ bytes: Buffer; contentType: string }>> {
    return [{ bytes: Buffer.from('not really a png'), contentType: 'image/png' }];
  }
}

export async function buildEngine(store: Store, upstream: AnyTaskUpstream, options: Partial<TaskEngineOptions> = {}, allow: string[] = ['127.0.0.1']): Promise<TaskEngine> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-media-'));
  const engine = new TaskEngine(
    { ...quickOptions, ...options },
    {
      store,
      media: new LocalMediaStore(dir),
      guard: new OutboundGuard(allow),
      logger: pino({ level: 'silent' }),
      channel: (id) => (id === testChannel.id ? testChannel : undefined),
      nextKey: (channel) => channel.apiKeys[0] ?? '',
    },
  );
  engine.registerUpstream(upstream);
  engine.registerFamily({
    name: 'test',
    render: (task) => ({ id: task.id, status: task.status, progress: task.progress }),
    modelOf: (task) => `test_${task.action.toLowerCase()}`,
  });
  return engine;
}

export function newTask(keyId: string, overrides: Partial<NewTask> = {}): NewTask {
  return {
    family: 'test',
    action: 'RUN',
    keyId,
    channelId: testChannel.id,
    request: { prompt: 'hello' },
    cost: 0,
    timeoutMs: 60_000,
    leaseOwner: 'submitter',
    leaseMs: 60_000,
    ...overrides,
  };
}

/** Creates a task and hands it to the upstream, as a family's submit does. */
export async function submitTask(engine: TaskEngine, keyId: string, overrides: Partial<NewTask> = {}): Promise<TaskRecord> {
  const task = await engine.tasks.create(newTask(keyId, { leaseOwner: engine.instanceId, ...overrides }));
  const upstream = engine.upstream('test', 'scripted')!;
  const outcome = await upstream.submit(task, undefined, {
    channel: testChannel,
    apiKey: 'secret',
    signal: AbortSignal.timeout(1000),
    timeoutMs: 1000,
  });
  const updated = await engine.change(task, {
    status: 'SUBMITTED',
    upstreamId: outcome.upstreamId,
    nextPollAt: engine.firstPollAt(),
  });
  return updated!;
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 8_000, stepMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
