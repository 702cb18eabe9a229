/**
 * An OpenAI batch input file read and checked line by line, as OpenAI does:
 * each line a JSON object `{custom_id, method: "POST", url, body}`, its url
 * the batch's endpoint, its custom_id unique in the file. A file with any
 * wrong line fails the batch with one error per wrong line (its number,
 * from 1), never a 5xx. The event loop is handed over between lines.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { timeSlices } from '../time-slices.js';
import type { NewBatchLine } from './repository.js';
import type { BatchError } from './schema.js';

/** OpenAI's bound on requests per batch. */
export const MAX_BATCH_LINES = 50_000;
/** Errors kept in `errors.data`; the rest are only counted in the last one. */
const MAX_ERRORS = 100;
const MAX_CUSTOM_ID = 512;

export type InputVerdict = { lines: NewBatchLine[] } | { errors: BatchError[] };

export async function readBatchInput(source: Readable, endpoint: string): Promise<InputVerdict> {
  const errors: BatchError[] = [];
  const lines: NewBatchLine[] = [];
  const seen = new Set<string>();
  const checkpoint = timeSlices();
  let number = 0;
  let more = 0;
  const fail = (code: string, message: string, param: string | null) => {
    if (errors.length < MAX_ERRORS) errors.push({ code, message, param, line: number });
    else more++;
  };
  for await (const text of createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY })) {
    number++;
    const pause = checkpoint();
    if (pause) await pause;
    if (text.trim() === '') continue;
    if (lines.length + errors.length + more >= MAX_BATCH_LINES) {
      fail('too_many_requests', `a batch takes at most ${MAX_BATCH_LINES} requests`, null);
      break;
    }
    const line = parseLine(text);
    if (typeof line === 'string') {
      fail('invalid_json_line', line, null);
      continue;
    }
    const customId = line.custom_id;
    if (typeof customId !== 'string' || customId === '' || customId.length > MAX_CUSTOM_ID) {
      fail('missing_required_parameter', `custom_id must be a string of 1 to ${MAX_CUSTOM_ID} characters`, 'custom_id');
      continue;
    }
    if (line.method !== 'POST') {
      fail('invalid_method', 'method must be "POST"', 'method');
      continue;
    }
    if (line.url !== endpoint) {
      fail('invalid_url', `url must be the batch's endpoint, ${endpoint}`, 'url');
      continue;
    }
    const body = line.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      fail('missing_required_parameter', 'body must be a JSON object', 'body');
      continue;
    }
    if (seen.has(customId)) {
      fail('duplicate_custom_id', `custom_id ${JSON.stringify(customId.slice(0, 64))} is used by an earlier line`, 'custom_id');
      continue;
    }
    seen.add(customId);
    lines.push({ customId, body: JSON.stringify(body) });
  }
  if (more > 0) errors.push({ code: 'too_many_errors', message: `${more} more lines are wrong`, param: null, line: null });
  if (errors.length > 0) return { errors };
  if (lines.length === 0) return { errors: [{ code: 'empty_file', message: 'the input file holds no requests', param: null, line: null }] };
  return { lines };
}

function parseLine(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the line is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the line is not a JSON object';
  return value as Record<string, unknown>;
}
