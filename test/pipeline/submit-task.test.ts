/**
 * Task submission's money rules, pinned without a server through narrow task
 * services: the task and its charge are stored once, before any upstream is
 * asked; a retryable refusal moves on to the next target, a final one does
 * not; a submission no target takes fails its task (the refund) without a
 * callback; a refused key stores nothing and charges nothing; every
 * submission writes exactly one log row.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import type { ClientKey } from '../../src/http/auth.js';
import { ChannelHealth } from '../../src/routing/health.js';
import type { TaskDraft, TaskServices } from '../../src/pipeline/services.js';
import { submitTask, type TaskSubmission } from '../../src/pipeline/submit-task.js';
import type { TaskLogFields } from '../../src/pipeline/task-log.js';
import { defineTaskKind } from '../../src/tasks/task-kind.js';
import type { TaskChange } from '../../src/tasks/task-writes.js';
import type { SubmitOutcome, TaskRecord, TaskUpstream } from '../../src/tasks/types.js';
import { channel } from './fakes.js';

const KIND = defineTaskKind<{ prompt: string }, { url: string }>('test-tasks');
const key = { record: { id: 'key_1', keyHash: 'hash_1', name: 'k' } } as unknown as ClientKey;
const meta = { requestId: 'req_t', clientIp: '127.0.0.1', startedAt: Date.now() };

/** Each channel type's answer to a submission, in order of calls. */
type Answers = Record<string, () => Promise<SubmitOutcome>>;

function taskServices(answers: Answers, options: { authorize?: () => void } = {}) {
  const created: TaskDraft[] = [];
  const changes: { change: TaskChange; notify?: boolean }[] = [];
  const charges: number[] = [];
  const logged: TaskLogFields[] = [];
  const calls: string[] = [];
  const services: TaskServices = {
    authorize: options.authorize ?? (() => {}),
    admit: () => undefined,
    maxAttempts: 3,
    health: new ChannelHealth(60_000),
    logger: pino({ level: 'silent' }),
    createTask: async (draft) => {
      created.push(draft);
      return { id: 'task_1', status: 'NOT_START', version: 1, timeoutAt: Date.now() + 60_000, ...draft } as unknown as TaskRecord;
    },
    changeTask: async (task, change, changeOptions) => {
      changes.push({ change, notify: changeOptions?.notify });
      return { ...task, ...change, version: task.version + 1 } as TaskRecord;
    },
    firstPollAt: () => 1_000,
    taskUpstream: <Request extends object, Result extends object, Payload>(_kind: unknown, noun: string, target: Channel) => {
      const answer = answers[target.type];
      if (!answer) throw new GatewayError('permission', `channel ${target.name} cannot run ${noun} tasks`);
      return {
        submit: () => {
          calls.push(target.type);
          return answer();
        },
      } as unknown as TaskUpstream<Request, Result, Payload>;
    },
    taskCall: (target) => ({ channel: target, apiKey: 'sk', signal: new AbortController().signal, timeoutMs: 1_000 }),
    holdBudgets: () => undefined,
    noteCharge: (_key, cost) => void charges.push(cost),
    costsOf: () => undefined,
    logTask: (_key, _meta, fields) => void logged.push(fields),
  };
  return { services, created, changes, charges, logged, calls };
}

function submission(channels: Channel[], price: number | null = 0.5): TaskSubmission<{ prompt: string }, { url: string }, undefined> {
  return {
    kind: KIND,
    noun: 'test',
    action: 'CREATE',
    model: 'm',
    price: () => price ?? undefined,
    targets: () => channels.map((target) => ({ channel: target })),
    request: () => ({ prompt: 'a lighthouse' }),
    payload: () => undefined,
    status: 201,
  };
}

describe('task submission', () => {
  it('stores the task with its charge before asking the upstream, records its acceptance, and logs once', async () => {
    const run = taskServices({ a: async () => ({ upstreamId: 'up_1' }) });
    const { task, outcome } = await submitTask(run.services, key, submission([channel('a')]), meta);
    expect(run.created).toEqual([expect.objectContaining({ family: 'test-tasks', action: 'CREATE', keyId: 'key_1', channelId: 'ch_a', cost: 0.5, request: { prompt: 'a lighthouse' } })]);
    expect(run.charges).toEqual([0.5]);
    expect(outcome.upstreamId).toBe('up_1');
    expect(task).toMatchObject({ status: 'SUBMITTED', upstreamId: 'up_1', channelId: 'ch_a', nextPollAt: 1_000 });
    expect(run.logged).toHaveLength(1);
    expect(run.logged[0]).toMatchObject({ status: 201, cost: 0.5, unpriced: false });
    expect(run.logged[0].error).toBeUndefined();
    expect(run.logged[0].channel?.id).toBe('ch_a');
  });

  it('hands the task to the next target after a retryable refusal, charged once', async () => {
    const run = taskServices({ a: async () => Promise.reject(upstreamStatusError(503, 'busy')), b: async () => ({ upstreamId: 'up_b' }) });
    const { task } = await submitTask(run.services, key, submission([channel('a'), channel('b')]), meta);
    expect(run.calls).toEqual(['a', 'b']);
    expect(task.channelId).toBe('ch_b');
    expect(run.created).toHaveLength(1);
    expect(run.charges).toEqual([0.5]);
    expect(run.logged).toHaveLength(1);
    expect(run.logged[0].attempts.map((attempt) => attempt.channelId)).toEqual(['ch_a', 'ch_b']);
  });

  it('fails the task (its refund) without a callback when no target takes it, and logs the refusal at no cost', async () => {
    const run = taskServices({ a: async () => Promise.reject(upstreamStatusError(400, 'bad prompt')), b: async () => ({ upstreamId: 'up_b' }) });
    await expect(submitTask(run.services, key, submission([channel('a'), channel('b')]), meta)).rejects.toMatchObject({ status: 400 });
    // A refusal that is not retryable is final: the next target is not asked.
    expect(run.calls).toEqual(['a']);
    expect(run.changes).toEqual([{ change: expect.objectContaining({ status: 'FAILURE' }), notify: false }]);
    expect(run.logged).toHaveLength(1);
    expect(run.logged[0]).toMatchObject({ status: 400, cost: 0 });
  });

  it('stores nothing, charges nothing and asks no upstream when the key is refused, and logs once', async () => {
    const run = taskServices(
      { a: async () => ({ upstreamId: 'up_1' }) },
      {
        authorize: () => {
          throw new GatewayError('permission', 'API key may not use model "m"');
        },
      },
    );
    await expect(submitTask(run.services, key, submission([channel('a')]), meta)).rejects.toMatchObject({ status: 403 });
    expect(run.created).toEqual([]);
    expect(run.charges).toEqual([]);
    expect(run.calls).toEqual([]);
    expect(run.logged).toHaveLength(1);
    expect(run.logged[0]).toMatchObject({ status: 403, cost: 0, channel: undefined });
  });

  it('logs a task priced nowhere as unpriced, at no cost and with no charge noted', async () => {
    const run = taskServices({ a: async () => ({ upstreamId: 'up_1' }) });
    await submitTask(run.services, key, submission([channel('a')], null), meta);
    expect(run.created[0].cost).toBe(0);
    expect(run.charges).toEqual([]);
    expect(run.logged[0]).toMatchObject({ cost: 0, unpriced: true });
  });
});
