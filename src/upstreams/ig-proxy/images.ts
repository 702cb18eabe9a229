/**
 * An ig-proxy channel serving OpenAI's `/v1/images/generations` while the
 * client waits (no task row: the client holds the connection). Each image
 * asked (`n`) is one imagine task, whose image (the service's 2×2 grid, as it
 * gives it) is that image of the answer; the tasks are submitted one after
 * the other (a refusal of the first fails over with nothing started), polled
 * together in one list call until all finish within the channel's
 * `imageWaitMs` (past it a 504, nothing billed), then downloaded through the
 * outbound guard. A size becomes the aspect ratio (`--ar W:H`, reduced)
 * appended to the prompt unless the prompt names one; the family renders the
 * bytes as `b64_json` or stores them for a `url`. Edits are not offered: the
 * service edits by buttons on a task (family A).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../../core/errors.js';
import type { ImageRequest, ImageResponse, MadeImage } from '../../dialects/openai-images/wire.js';
import type { TaskCall } from '../../tasks/types.js';
import { toUpstreamError } from '../http.js';
import type { ImageOperation, UpstreamCall } from '../types.js';
import { exchange, outcomeOf, type UpstreamEnvelope } from './client.js';
import { downloadImage } from './media.js';
import type { UpstreamTaskRecord } from './records.js';
import { readIgProxySettings, type IgProxySettings } from './settings.js';

/** The first poll comes soon (small tasks finish in seconds), later ones further apart. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 3_000;

export const igProxyImages: ImageOperation = {
  offered: (_channel, operation) => operation === 'generations',
  serve,
};

async function serve(request: ImageRequest, call: UpstreamCall): Promise<ImageResponse> {
  const settings = readIgProxySettings(call.channel);
  const deadline = Date.now() + settings.imageWaitMs;
  const aborter = new AbortController();
  const onAbort = () => aborter.abort(call.signal.reason);
  if (call.signal.aborted) onAbort();
  else call.signal.addEventListener('abort', onAbort, { once: true });
  const task: TaskCall = { channel: call.channel, apiKey: call.apiKey, signal: aborter.signal, timeoutMs: call.timeoutMs, limits: call.limits, outbound: call.outbound };
  try {
    const prompt = withAspect(request.prompt, request.size);
    const ids: string[] = [];
    for (let i = 0; i < request.n; i++) ids.push(await submitImagine(task, settings, prompt));
    const records = await waitForAll(task, ids, deadline, settings.imageWaitMs);
    const images = await Promise.all(records.map((record) => downloaded(record, task, settings)));
    return { images };
  } finally {
    call.signal.removeEventListener('abort', onAbort);
  }
}

async function submitImagine(task: TaskCall, settings: IgProxySettings, prompt: string): Promise<string> {
  const envelope = await exchange<UpstreamEnvelope>(task, 'POST', '/submit/imagine', { botType: settings.botTypes.MID_GEN, prompt, base64Array: [] });
  return outcomeOf(envelope, 'imagine').upstreamId;
}

/** Polls the tasks until every one succeeded; a failed one fails the request, the deadline is a 504. */
async function waitForAll(task: TaskCall, ids: string[], deadline: number, waitMs: number): Promise<UpstreamTaskRecord[]> {
  const done = new Map<string, UpstreamTaskRecord>();
  let pause = FIRST_POLL_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw notReady(waitMs);
    await sleep(Math.min(pause, left), undefined, { signal: task.signal }).catch((error: unknown) => {
      throw toUpstreamError(error, task.signal);
    });
    pause = Math.min(MAX_POLL_MS, pause * 2);
    const pending = ids.filter((id) => !done.has(id));
    const records = await exchange<unknown>(task, 'POST', '/task/list-by-condition', { ids: pending });
    if (!Array.isArray(records)) throw new GatewayError('upstream_error', 'list-by-condition did not answer a list', { retryable: true });
    for (const record of records as UpstreamTaskRecord[]) {
      const id = record ? String(record.id) : '';
      if (!pending.includes(id)) continue;
      const status = String(record.status ?? '').toUpperCase();
      if (status === 'FAILURE' || status === 'CANCEL') {
        throw new GatewayError('upstream_error', `the upstream did not make the image: ${record.failReason || `it reported ${status}`}`);
      }
      if (status === 'SUCCESS') done.set(id, record);
    }
    if (done.size === ids.length) return ids.map((id) => done.get(id)!);
  }
}

function notReady(waitMs: number): GatewayError {
  return new GatewayError('timeout', `the image was not ready within ${Math.round(waitMs / 1000)} s (the channel's imageWaitMs); nothing was charged`);
}

async function downloaded(record: UpstreamTaskRecord, task: TaskCall, settings: IgProxySettings): Promise<MadeImage> {
  if (!record.imageUrl) throw new GatewayError('upstream_error', 'the upstream finished the image without an address', { retryable: true });
  const { bytes } = await downloadImage(record.imageUrl, task, settings.maxImageBytes);
  const revised = record.properties?.finalPrompt ?? record.promptEn;
  return typeof revised === 'string' && revised !== '' ? { bytes, revisedPrompt: revised } : { bytes };
}

/** `1792x1024` → ` --ar 7:4` appended, unless the size is absent or `auto` or the prompt names its own ratio. */
export function withAspect(prompt: string, size: string | undefined): string {
  const match = size === undefined ? null : /^(\d+)x(\d+)$/.exec(size);
  if (!match || /(^|\s)--(ar|aspect)\s/.test(prompt)) return prompt;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const divisor = gcd(width, height);
  return `${prompt} --ar ${width / divisor}:${height / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
