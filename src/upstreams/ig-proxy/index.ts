/**
 * The `ig-proxy` upstream: an image-task service speaking the same API as
 * family A (submit, action, modal, list-by-condition, image seed), under its
 * own path prefix, secret header and bot-type words (see settings.ts). The
 * service's task ids stay inside the gateway: clients only see gateway ids.
 * Polling asks about many tasks in one list-by-condition call.
 */
import { GatewayError } from '../../core/errors.js';
import { IMAGE_TASKS, type ImageModalPayload, type ImageSubmitPayload, type ImageTaskRequest, type ImageTaskUpstream } from '../../tasks/image-contract.js';
import type { MediaItem, Observation, SubmitOutcome, TaskCall, TaskRecord } from '../../tasks/types.js';
import { exchange, outcomeOf, refusal, type UpstreamEnvelope } from './client.js';
import { downloadImage } from './media.js';
import { observationOf, type UpstreamTaskRecord } from './records.js';
import { declaresAccounts } from '../accounts-setting.js';
import { readIgProxySettings } from './settings.js';

const requestOf = (task: TaskRecord): ImageTaskRequest => IMAGE_TASKS.request(task);

/** The account filter sent upstream: the declared account the gateway chose, else the client's own filter. */
function accountFilterFor(task: TaskRecord, payload: ImageSubmitPayload, call: TaskCall): Record<string, unknown> | undefined {
  if (declaresAccounts(call.channel) && task.accountId) return { instanceId: task.accountId };
  return payload.accountFilter;
}

function submission(task: TaskRecord, payload: ImageSubmitPayload, call: TaskCall): { path: string; body: Record<string, unknown> } {
  const settings = readIgProxySettings(call.channel);
  const request = requestOf(task);
  const botType = settings.botTypes[request.botType];
  const accountFilter = accountFilterFor(task, payload, call);
  const common = accountFilter ? { accountFilter } : {};
  const images = payload.images.map((image) => image.dataUrl);
  switch (request.endpoint) {
    case 'imagine':
      return { path: '/submit/imagine', body: { botType, prompt: request.prompt, base64Array: images, ...common } };
    case 'blend':
      return { path: '/submit/blend', body: { botType, base64Array: images, dimensions: request.dimensions, ...common } };
    case 'describe':
      return { path: '/submit/describe', body: { botType, base64: images[0], ...common } };
    case 'shorten':
      return { path: '/submit/shorten', body: { botType, prompt: request.prompt, ...common } };
    case 'swap_face':
      return { path: settings.faceSwapPath, body: { sourceBase64: images[0], targetBase64: images[1], ...common } };
    case 'action':
      if (!payload.parentUpstreamId) throw new GatewayError('invalid_request', 'the task acted on has no upstream id');
      return { path: '/submit/action', body: { taskId: payload.parentUpstreamId, customId: payload.upstreamCustomId } };
  }
}

async function submit(task: TaskRecord, payload: ImageSubmitPayload, call: TaskCall): Promise<SubmitOutcome> {
  const { path, body } = submission(task, payload, call);
  const envelope = await exchange<UpstreamEnvelope>(call, 'POST', path, body);
  return outcomeOf(envelope, requestOf(task).endpoint);
}

async function confirmModal(task: TaskRecord, payload: ImageModalPayload, call: TaskCall): Promise<SubmitOutcome> {
  if (!task.upstreamId) throw new GatewayError('invalid_request', `task ${task.id} has no upstream id`);
  const body: Record<string, unknown> = { taskId: task.upstreamId, prompt: payload.prompt };
  if (payload.mask) body.maskBase64 = payload.mask.dataUrl;
  const envelope = await exchange<UpstreamEnvelope>(call, 'POST', '/submit/modal', body);
  const outcome = outcomeOf(envelope, 'modal');
  return { ...outcome, upstreamId: outcome.upstreamId || task.upstreamId };
}

async function poll(tasks: TaskRecord[], call: TaskCall): Promise<Map<string, Observation>> {
  const { customIdPrefix } = readIgProxySettings(call.channel);
  const byUpstreamId = new Map<string, TaskRecord>();
  for (const task of tasks) if (task.upstreamId) byUpstreamId.set(task.upstreamId, task);
  const records = await exchange<unknown>(call, 'POST', '/task/list-by-condition', { ids: [...byUpstreamId.keys()] });
  if (!Array.isArray(records)) throw new GatewayError('upstream_error', 'list-by-condition did not answer a list', { retryable: true });
  const out = new Map<string, Observation>();
  for (const record of records as UpstreamTaskRecord[]) {
    const task = record && byUpstreamId.get(String(record.id));
    const observation = task && observationOf(task, record, customIdPrefix);
    if (task && observation) out.set(task.id, observation);
  }
  return out;
}

async function fetchMedia(_task: TaskRecord, observation: Observation, call: TaskCall): Promise<MediaItem[]> {
  const address = observation.mediaUrls?.[0];
  if (!address) return [];
  return [await downloadImage(address, call, readIgProxySettings(call.channel).maxImageBytes)];
}

async function imageSeed(task: TaskRecord, call: TaskCall): Promise<string> {
  if (!task.upstreamId) throw new GatewayError('invalid_request', `task ${task.id} has no upstream id`);
  const envelope = await exchange<UpstreamEnvelope>(call, 'GET', `/task/${encodeURIComponent(task.upstreamId)}/image-seed`);
  if (envelope.code !== 1 || envelope.result === null || envelope.result === undefined) throw refusal(envelope, 'the upstream has no seed');
  return String(envelope.result);
}

export const igProxyUpstream: ImageTaskUpstream = {
  kind: IMAGE_TASKS,
  type: 'ig-proxy',
  maxPollBatch: 100,
  submit,
  confirmModal,
  poll,
  fetchMedia,
  imageSeed,
};
