/**
 * The end of a batch, once no line is pending: one instance takes it to
 * `finalizing` (compare-and-set), writes an OpenAI batch's output file (the
 * lines that succeeded) and error file (the others) in OpenAI's JSONL, each
 * under an id derived from the batch's so that an instance taking over a
 * finalization whose instance died writes the same files again rather than
 * new ones, then sets the final status with the counts and usage. An
 * Anthropic batch's results are read from its lines; it writes no file.
 */
import type { FileRepository } from '../../storage/files.js';
import type { MediaStore } from '../media.js';
import type { BatchLineRepository } from './lines.js';
import type { BatchPatch, BatchRepository } from './repository.js';
import type { AnsweredLine, BatchRecord, BatchStatus, LineCounts } from './schema.js';

const PAGE = 500;

export interface FinalizeDeps {
  batches: BatchRepository;
  lines: BatchLineRepository;
  files: FileRepository;
  media: MediaStore;
  /** A finalization older than this is taken to have died with its instance. */
  staleMs: number;
}

/** Finishes the batch if this instance wins it; the final record, or undefined when another instance has it. */
export async function finalizeBatch(deps: FinalizeDeps, batch: BatchRecord, now = Date.now()): Promise<BatchRecord | undefined> {
  if (batch.status === 'finalizing' && batch.finalizingAt !== null && batch.finalizingAt > now - deps.staleMs) return undefined;
  const taken = await deps.batches.transition(batch, { status: 'finalizing', finalizing_at: now }, now);
  if (!taken) return undefined;
  const counts = await deps.lines.counts(batch.id);
  const status: BatchStatus = taken.cancellingAt !== null ? 'cancelled' : counts.expired > 0 ? 'expired' : 'completed';
  const patch: BatchPatch = { status, counts: JSON.stringify(counts) };
  if (status === 'completed') patch.completed_at = Date.now();
  else if (status === 'cancelled') patch.cancelled_at = Date.now();
  else patch.expired_at = Date.now();
  if (taken.api === 'openai') Object.assign(patch, await writeFiles(deps, taken, counts));
  return deps.batches.transition(taken, patch);
}

async function writeFiles(deps: FinalizeDeps, batch: BatchRecord, counts: LineCounts): Promise<BatchPatch> {
  const usage = new UsageSum();
  const patch: BatchPatch = {};
  if (counts.succeeded > 0) patch.output_file_id = await writeFile(deps, batch, 'output', true, usage);
  if (counts.failed + counts.cancelled + counts.expired > 0) patch.error_file_id = await writeFile(deps, batch, 'errors', false, usage);
  patch.usage = JSON.stringify(usage.value());
  return patch;
}

async function writeFile(deps: FinalizeDeps, batch: BatchRecord, name: string, succeeded: boolean, usage: UsageSum): Promise<string> {
  const id = `file-${batch.id.slice(batch.id.indexOf('_') + 1)}-${name}`;
  const stored = await deps.media.putStream(jsonl(deps, batch, succeeded, usage), 'application/octet-stream');
  const createdAt = Date.now();
  const created = await deps.files.insert({
    id,
    keyId: batch.keyId,
    teamId: batch.teamId,
    userId: batch.userId,
    purpose: 'batch_output',
    filename: `${batch.id}_${name === 'output' ? 'output' : 'error'}.jsonl`,
    bytes: stored.size,
    status: 'processed',
    mediaKey: stored.key,
    createdAt,
    // The expiry sweeper removes it then (`output_expires_after`, anchored at the file's creation).
    expiresAt: batch.outputExpiresSeconds === null ? null : createdAt + batch.outputExpiresSeconds * 1000,
  });
  // An instance that died finalizing wrote it already: that one stays.
  if (!created) await deps.media.remove(stored.key);
  return id;
}

async function* jsonl(deps: FinalizeDeps, batch: BatchRecord, succeeded: boolean, usage: UsageSum): AsyncGenerator<string> {
  const tail = batch.id.slice(batch.id.indexOf('_') + 1);
  for (let after = -1; ; ) {
    const page = await deps.lines.page(batch.id, after, PAGE, succeeded);
    if (page.length === 0) return;
    let text = '';
    for (const line of page) {
      usage.add(line);
      text += `${JSON.stringify(outputLine(tail, line))}\n`;
    }
    yield text;
    after = page[page.length - 1].index;
  }
}

/** OpenAI's output and error file line: `{id, custom_id, response: {status_code, request_id, body} | null, error}`. */
function outputLine(tail: string, line: AnsweredLine) {
  return {
    id: `batch_req_${tail}_${line.index}`,
    custom_id: line.customId,
    response: line.response === null ? null : { status_code: line.response.status_code, request_id: line.requestId, body: line.response.body },
    error: line.error,
  };
}

/** The batch's usage: the tokens of its answers, in the Responses words OpenAI's batch object uses. */
class UsageSum {
  private input = 0;
  private output = 0;
  private cached = 0;
  private reasoning = 0;

  add(line: AnsweredLine): void {
    const usage = (line.response?.body as { usage?: Record<string, unknown> } | null)?.usage;
    if (!usage || typeof usage !== 'object') return;
    const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    this.input += number(usage.prompt_tokens ?? usage.input_tokens);
    this.output += number(usage.completion_tokens ?? usage.output_tokens);
    const inputDetails = (usage.prompt_tokens_details ?? usage.input_tokens_details) as Record<string, unknown> | undefined;
    const outputDetails = (usage.completion_tokens_details ?? usage.output_tokens_details) as Record<string, unknown> | undefined;
    this.cached += number(inputDetails?.cached_tokens);
    this.reasoning += number(outputDetails?.reasoning_tokens);
  }

  value() {
    return {
      input_tokens: this.input,
      input_tokens_details: { cached_tokens: this.cached },
      output_tokens: this.output,
      output_tokens_details: { reasoning_tokens: this.reasoning },
      total_tokens: this.input + this.output,
    };
  }
}
