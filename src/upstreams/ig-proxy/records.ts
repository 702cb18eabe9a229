/**
 * Reading the service's task records: status, progress text, failure, the
 * result prompts and its buttons. Buttons get the gateway's `IG::` customIds
 * (the service's prefix and job hash replaced), keeping the service's own
 * customId aside to send back when the client presses one. The service's
 * image address is used to fetch the image and never stored.
 */
import { createHash } from 'node:crypto';
import type { ImageTaskResult, StoredButton } from '../../tasks/image-contract.js';
import type { Observation, TaskRecord, TaskStatus } from '../../tasks/types.js';

export interface UpstreamTaskRecord {
  id?: string | number;
  action?: string;
  status?: string;
  prompt?: string;
  promptEn?: string;
  description?: string;
  failReason?: string;
  imageUrl?: string;
  progress?: string | number;
  startTime?: number;
  finishTime?: number;
  properties?: Record<string, unknown> | null;
  buttons?: Array<Record<string, unknown>> | null;
}

const STATUSES = new Set<TaskStatus>(['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'CANCEL']);

export function parseProgress(value: unknown): number {
  const number = typeof value === 'number' ? value : Number.parseFloat(String(value ?? '').replace('%', ''));
  return Number.isFinite(number) ? Math.max(0, Math.min(100, Math.round(number))) : 0;
}

/** The job hash in the gateway's customIds of a task: stable, and unrelated to anything upstream. */
export function gatewayHash(taskId: string): string {
  const hex = createHash('sha256').update(`ig-proxy|${taskId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const HASH_SEGMENT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function rewriteButtons(buttons: UpstreamTaskRecord['buttons'], prefix: string, hash: string): StoredButton[] {
  const out: StoredButton[] = [];
  for (const raw of buttons ?? []) {
    const upstreamCustomId = raw.customId;
    // Link buttons have no customId: nothing to press through the API.
    if (typeof upstreamCustomId !== 'string' || upstreamCustomId === '') continue;
    const parts = upstreamCustomId.split('::');
    if (parts[0] === prefix) parts[0] = 'IG';
    const customId = parts.map((part) => (HASH_SEGMENT.test(part) ? hash : part)).join('::');
    out.push({
      customId,
      emoji: typeof raw.emoji === 'string' ? raw.emoji : '',
      label: typeof raw.label === 'string' ? raw.label : '',
      style: 2,
      type: 2,
      upstreamCustomId,
    });
  }
  return out;
}

/** `1️⃣ text\n\n2️⃣ text…` back into its lines. */
export function numberedLines(text: string): string[] {
  return (
    text
      .split(/\n\s*\n|\n/)
      // The keycap (U+FE0F U+20E3) written as escapes: the bundle stays ASCII (scripts/bundle.mjs).
      .map((line) => line.replace(/^\s*(\d\u{FE0F}\u{20E3}|\d+[.)])\s*/u, '').trim())
      .filter((line) => line !== '' && !/^\*\*.*\*\*$/.test(line))
  );
}

function resultOf(task: TaskRecord, record: UpstreamTaskRecord, prefix: string): ImageTaskResult {
  const action = task.action;
  const layout = action === 'DESCRIBE' || action === 'SHORTEN' ? 'text' : action === 'UPSCALE' || action === 'SWAP_FACE' ? 'single' : 'grid';
  const finalPrompt = String(record.properties?.finalPrompt ?? record.promptEn ?? record.prompt ?? '');
  const result: ImageTaskResult = { layout, finalPrompt, buttons: rewriteButtons(record.buttons, prefix, gatewayHash(task.id)), hash: gatewayHash(task.id) };
  if (action === 'DESCRIBE') {
    const text = record.promptEn || record.prompt || '';
    return { ...result, prompt: text, promptEn: text, prompts: numberedLines(text) };
  }
  if (action === 'SHORTEN') {
    const description = record.description ?? '';
    return { ...result, description, prompts: numberedLines(description) };
  }
  return result;
}

/** An observation from one of the service's records; undefined when the record makes no sense. */
export function observationOf(task: TaskRecord, record: UpstreamTaskRecord, prefix: string): Observation | undefined {
  const status = String(record.status ?? '').toUpperCase() as TaskStatus;
  if (!STATUSES.has(status)) return undefined;
  const observation: Observation = { status, progress: parseProgress(record.progress) };
  if (typeof record.startTime === 'number' && record.startTime > 0) observation.startTime = record.startTime;
  if (typeof record.finishTime === 'number' && record.finishTime > 0) observation.finishTime = record.finishTime;
  if (status === 'FAILURE' || status === 'CANCEL') observation.failReason = record.failReason || `the upstream reported ${status}`;
  if (status === 'SUCCESS') {
    observation.result = { ...resultOf(task, record, prefix) };
    if (record.imageUrl && task.action !== 'DESCRIBE' && task.action !== 'SHORTEN') observation.mediaUrls = [record.imageUrl];
  }
  return observation;
}
