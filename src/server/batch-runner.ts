/**
 * The batch runner of a gateway instance (src/tasks/batches/runner.ts) with
 * what it needs from above the task layer: each endpoint's line handler, the
 * family's own serving path (chat completions, responses, embeddings, completions and
 * moderations for OpenAI's batches, messages for Anthropic's), the batch's key as the store has it
 * now (a key disabled or expired since answers its lines with the 401 its
 * requests would get), and what the pace of its lines is judged on
 * (src/tasks/batches/pace.ts), every window: interactive requests arrived
 * or in flight, and the event loop's delay. Lines an
 * upstream's own Batch API serves are handed to it (batch-delegation.ts).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GatewayError } from '../core/errors.js';
import { renderMessagesError } from '../dialects/messages/errors.js';
import { renderOpenAIError } from '../dialects/openai/errors.js';
import { chatCompletionsBatchLine } from '../families/chat-completions/batch-line.js';
import { completionsBatchLine } from '../families/completions/batch-line.js';
import { embeddingsBatchLine } from '../families/embeddings/batch-line.js';
import { moderationsBatchLine } from '../families/moderations/batch-line.js';
import { responsesBatchLine } from '../families/responses/batch-line.js';
import { messagesBatchLine } from '../families/messages/batch-line.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import type { BatchLineHandler, RecordedAnswer } from '../pipeline/recorded-output.js';
import { FileRepository } from '../storage/files.js';
import { BatchLineRepository } from '../tasks/batches/lines.js';
import { BatchRepository } from '../tasks/batches/repository.js';
import { BatchPace } from '../tasks/batches/pace.js';
import { BatchRunner, type LineOutcome } from '../tasks/batches/runner.js';
import { DelegationLoop } from '../tasks/batches/delegation/loop.js';
import { DelegationRepository } from '../tasks/batches/delegation/repository.js';
import { delegationDb } from '../tasks/batches/delegation/schema.js';
import { delegationHost } from './batch-delegation.js';
import { batchDb, type BatchApi, type BatchLine, type BatchRecord } from '../tasks/batches/schema.js';
import { newRequestId } from './request-id.js';
import { batchKeyReader } from './batch-keys.js';

export function createBatchRunner(ctx: AppContext): BatchRunner {
  const handlers = new Map<string, BatchLineHandler>([
    ['openai /v1/chat/completions', chatCompletionsBatchLine(ctx)],
    ['openai /v1/responses', responsesBatchLine(ctx)],
    ['openai /v1/embeddings', embeddingsBatchLine(ctx)],
    ['openai /v1/completions', completionsBatchLine(ctx)],
    ['openai /v1/moderations', moderationsBatchLine(ctx)],
    ['anthropic /v1/messages', messagesBatchLine(ctx)],
  ]);
  const keyOf = batchKeyReader(ctx);
  const pace = new BatchPace(ctx.settings.tasks.batchConcurrency);
  const db = batchDb(ctx.store);
  let runner: BatchRunner;

  const runLine = async (batch: BatchRecord, line: BatchLine): Promise<LineOutcome> => {
    const requestId = newRequestId();
    const handler = handlers.get(`${batch.api} ${batch.endpoint}`);
    const render = (error: GatewayError): RecordedAnswer => {
      const rendered = batch.api === 'anthropic' ? renderMessagesError(error, requestId) : renderOpenAIError(error, 'chat-completions');
      return { status: rendered.status, body: rendered.body };
    };
    let answer: RecordedAnswer;
    const key = await keyOf(batch.keyId);
    const refusal = keyRefusal(key);
    if (!handler) answer = render(new GatewayError('invalid_request', `batches of ${batch.endpoint} are not served`));
    else if (refusal || !key) answer = render(refusal ?? new GatewayError('authentication', "the batch's API key no longer exists"));
    else answer = await handler({ requestId, key, body: line.body });
    return lineOutcome(batch.api, requestId, answer, line.attempt);
  };

  const batches = new BatchRepository(db);
  const delegation = new DelegationLoop(
    { leaseMs: ctx.settings.tasks.leaseMs, pollMs: ctx.settings.tasks.batchUpstreamPollMs, owner: ctx.tasks.instanceId },
    { repo: new DelegationRepository(delegationDb(ctx.store)), batches, host: delegationHost(ctx), logger: ctx.logger },
  );
  runner = new BatchRunner(
    { concurrency: ctx.settings.tasks.batchConcurrency, leaseMs: ctx.settings.tasks.leaseMs, tickMs: ctx.settings.tasks.tickMs },
    {
      batches,
      delegation,
      lines: new BatchLineRepository(db, ctx.store.engine),
      files: new FileRepository(ctx.store),
      media: ctx.tasks.media,
      logger: ctx.logger,
      owner: ctx.tasks.instanceId,
      runLine,
      pace,
      stopped: watchPace(ctx, pace, () => runner),
    },
  );
  return runner;
}

/** Judges the pace every window and wakes the runner when more lines may start; returns what stops it. */
function watchPace(ctx: AppContext, pace: BatchPace, runner: () => BatchRunner): () => void {
  if (pace.concurrency <= 0) return () => {};
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let arrivals = ctx.arrivals.count;
  const timer = setInterval(() => {
    const seen = ctx.arrivals.count;
    // Each line is at most one chat call, so more calls than lines in flight means an interactive one.
    const interactive = seen !== arrivals || ctx.inFlight.size > runner().running;
    arrivals = seen;
    const loopDelayMs = delay.count > 0 ? delay.percentile(99) / 1e6 : 0;
    delay.reset();
    if (pace.sample({ interactive, loopDelayMs }, Date.now())) runner().wake();
  }, pace.tuning.sampleMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}

function keyRefusal(key: ClientKey | undefined): GatewayError | undefined {
  const record = key?.record;
  if (!record) return undefined;
  if (record.status !== 'active') return new GatewayError('authentication', 'API key is disabled');
  if (record.expiresAt !== null && record.expiresAt <= Date.now()) return new GatewayError('authentication', 'API key has expired');
  return undefined;
}

/** The line's answer as stored: succeeded on a 2xx, else failed with the error its body names; a 429 is tried again later, a few times. */
function lineOutcome(api: BatchApi, requestId: string, answer: RecordedAnswer, attempt: number): LineOutcome {
  const response = { status_code: answer.status, body: answer.body };
  if (answer.status >= 200 && answer.status < 300) return { status: 'succeeded', requestId, response, error: null };
  const error = (answer.body as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null)?.error;
  const code = api === 'openai' && typeof error?.code === 'string' ? error.code : typeof error?.type === 'string' ? error.type : `http_${answer.status}`;
  const message = typeof error?.message === 'string' ? error.message : `the request failed with status ${answer.status}`;
  const outcome: LineOutcome = { status: 'failed', requestId, response, error: { code, message } };
  if (answer.status === 429) outcome.retryAfterMs = Math.min(30_000, 500 * 2 ** attempt);
  return outcome;
}
