/**
 * The end of an upstream batch: its results read line by line as they
 * arrive (OpenAI's output and error files, Anthropic's results), each
 * answered line (its custom id is our line's index)
 * written with a compare-and-set (still pending, still this delegation's)
 * and billed at the batch price only when that write won, so a line is
 * billed once even when an instance died collecting and another collects
 * again. The lines the upstream did not answer (it expired, failed or was
 * cancelled) or answered with a passing failure (a 5xx, 429 or 529: an
 * overloaded upstream, not a bad request) go back to the local runner, or
 * end as our batch did.
 */
import type { BatchRecord } from '../schema.js';
import type { LineAnswer } from '../lines.js';
import { batchEnded, endAnswer, type StepDeps } from './step.js';
import type { DelegatedLine, Delegation, DelegationPatch } from './schema.js';

const PAGE = 1_000;
/** Statuses that say nothing about the request itself: running it again may well answer it. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504, 529]);

export async function collectResults(deps: StepDeps, delegation: Delegation, batch: BatchRecord): Promise<DelegationPatch> {
  const waiting = new Map<number, DelegatedLine>();
  for (let after = -1; ; ) {
    const page = await deps.repo.lines(delegation.id, batch.id, after, PAGE);
    if (page.length === 0) break;
    // Only the model is kept (for the log row): the bodies of 50,000 lines are not held while the files are read.
    for (const line of page) waiting.set(line.index, { index: line.index, customId: line.customId, body: { model: line.body.model } });
    after = page[page.length - 1].index;
  }
  let answered = 0;
  if (waiting.size > 0) {
    for await (const result of deps.host.client(delegation).results(delegation)) {
      const line = waiting.get(Number(result.customId));
      // Not run, or failed for a passing reason (overloaded, rate-limited, a server error): left to the local runner below.
      if (!line || result.response === null || TRANSIENT_STATUSES.has(result.response.statusCode)) continue;
      const requestId = deps.host.newRequestId();
      if (!(await deps.repo.answer(delegation.id, batch.id, line.index, lineAnswer(requestId, result.response)))) continue;
      waiting.delete(line.index);
      answered++;
      await deps.host.bill(batch, delegation, line, result.response, requestId).catch((error: unknown) => deps.logger.warn({ err: error, batch: batch.id, line: line.index }, 'batch line not billed'));
    }
  }
  const now = Date.now();
  const end = batchEnded(batch, now);
  const context = { batch: batch.id, delegation: delegation.id, upstreamBatch: delegation.upstreamBatchId, upstreamStatus: delegation.upstreamStatus, answered };
  if (end) {
    const lines = await deps.repo.endLines(delegation.id, batch.id, endAnswer(end), now);
    deps.logger.info({ ...context, ended: lines }, 'upstream batch collected');
  } else {
    const back = await deps.repo.handBack(delegation.id, batch.id, now);
    if (back > 0) deps.logger.warn({ ...context, lines: back }, 'the upstream batch left lines unanswered: they run on the gateway');
    else deps.logger.info(context, 'upstream batch collected');
  }
  return { state: 'done' };
}

/** The line's answer as the local runner writes one: succeeded on a 2xx, else failed with the error the body names. */
function lineAnswer(requestId: string, response: { statusCode: number; body: unknown }): LineAnswer {
  const stored = { status_code: response.statusCode, body: response.body };
  if (response.statusCode >= 200 && response.statusCode < 300) return { status: 'succeeded', requestId, response: stored, error: null };
  const error = (response.body as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : typeof error?.type === 'string' ? error.type : `http_${response.statusCode}`;
  const message = typeof error?.message === 'string' ? error.message : `the request failed with status ${response.statusCode}`;
  return { status: 'failed', requestId, response: stored, error: { code, message } };
}
