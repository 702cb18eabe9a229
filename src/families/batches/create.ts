/**
 * `POST /v1/batches`: the body checked as OpenAI checks it, the input file
 * (the key's own, purpose `batch`) read and checked line by line
 * (src/tasks/batches/input.ts), and the batch stored with its lines, running
 * at once; a wrong file makes a `failed` batch naming each wrong line.
 * `output_expires_after` gives the output and error files an expiry.
 */
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { KeyRecord } from '../../storage/types.js';
import { FILE_EXPIRY_SECONDS, type FileRepository } from '../../storage/files.js';
import type { MediaStore } from '../../tasks/media.js';
import { readBatchInput } from '../../tasks/batches/input.js';
import type { BatchRepository, NewBatchLine } from '../../tasks/batches/repository.js';
import { BATCH_ENDPOINTS, newBatchRow, type BatchRecord } from '../../tasks/batches/schema.js';

const MAX_METADATA_PAIRS = 16;

export interface CreateDeps {
  batches: BatchRepository;
  files: FileRepository;
  media: MediaStore;
}

interface CreateBody {
  inputFileId: string;
  endpoint: string;
  metadata: Record<string, string> | null;
  outputExpiresSeconds: number | null;
}

export async function createBatch(deps: CreateDeps, key: KeyRecord, body: unknown): Promise<BatchRecord> {
  const asked = checkBody(body);
  const file = await deps.files.get(asked.inputFileId, key.id);
  if (!file) throw new GatewayError('not_found', `No such File object: ${asked.inputFileId}`, { param: 'input_file_id' });
  if (file.purpose !== 'batch') throw invalidRequest(`File ${file.id} has purpose '${file.purpose}'; a batch's input file needs purpose 'batch'`, 'input_file_id');
  const content = await deps.media.open(file.mediaKey);
  if (!content) throw new GatewayError('not_found', `No such File object: ${asked.inputFileId}`, { param: 'input_file_id' });
  const verdict = await readBatchInput(content.stream, asked.endpoint);
  const lines: NewBatchLine[] = 'lines' in verdict ? verdict.lines : [];
  const row = newBatchRow({
    api: 'openai',
    key,
    endpoint: asked.endpoint,
    total: lines.length,
    inputFileId: file.id,
    metadata: asked.metadata,
    outputExpiresSeconds: asked.outputExpiresSeconds,
    errors: 'errors' in verdict ? verdict.errors : undefined,
  });
  return deps.batches.create(row, lines);
}

function checkBody(body: unknown): CreateBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('the body must be a JSON object');
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (!['input_file_id', 'endpoint', 'completion_window', 'metadata', 'output_expires_after'].includes(name)) throw invalidRequest(`Unrecognized request argument supplied: ${name}`, name);
  }
  if (typeof fields.input_file_id !== 'string' || fields.input_file_id === '') throw invalidRequest("Missing required parameter: 'input_file_id'.", 'input_file_id');
  const endpoints = BATCH_ENDPOINTS.openai;
  if (typeof fields.endpoint !== 'string' || !endpoints.includes(fields.endpoint)) {
    throw invalidRequest(`Invalid 'endpoint': this gateway runs batches of ${endpoints.join(', ')}`, 'endpoint');
  }
  if (fields.completion_window !== '24h') throw invalidRequest("Invalid 'completion_window': expected '24h'", 'completion_window');
  return {
    inputFileId: fields.input_file_id.slice(0, 200),
    endpoint: fields.endpoint,
    metadata: checkMetadata(fields.metadata),
    outputExpiresSeconds: checkOutputExpiry(fields.output_expires_after),
  };
}

/** `output_expires_after: {anchor: 'created_at', seconds}`, the rule of a file's `expires_after`: the seconds, or null when not asked. */
function checkOutputExpiry(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest("Invalid 'output_expires_after': expected an object with 'anchor' and 'seconds'", 'output_expires_after');
  const { anchor, seconds, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw invalidRequest(`Unrecognized request argument supplied: output_expires_after.${unknown}`, `output_expires_after.${unknown}`);
  if (anchor !== 'created_at') throw invalidRequest("Invalid 'output_expires_after.anchor': expected 'created_at'", 'output_expires_after.anchor');
  const { min, max } = FILE_EXPIRY_SECONDS;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < min || seconds > max) {
    throw invalidRequest(`Invalid 'output_expires_after.seconds': expected an integer from ${min} to ${max}`, 'output_expires_after.seconds');
  }
  return seconds;
}

function checkMetadata(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest("Invalid 'metadata': expected an object of strings", 'metadata');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_METADATA_PAIRS) throw invalidRequest(`Invalid 'metadata': at most ${MAX_METADATA_PAIRS} keys`, 'metadata');
  for (const [name, text] of entries) {
    if (name.length > 64 || typeof text !== 'string' || text.length > 512) throw invalidRequest("Invalid 'metadata': keys up to 64 characters, values strings up to 512", 'metadata');
  }
  return value as Record<string, string>;
}
