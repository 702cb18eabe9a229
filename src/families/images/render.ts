/**
 * The task record as clients see it (fetch, list-by-condition, callbacks):
 * exactly the spec's fields, in its order. Times are epoch milliseconds (0
 * until set), progress is text ("0%".."100%"), image URLs are absolute
 * gateway addresses with an unguessable token, buttons appear once the task
 * succeeded, and upstream ids and addresses never appear.
 */
import { IMAGE_TASKS, type ImageTaskRequest, type ImageTaskResult } from '../../tasks/image-contract.js';
import { isFinal, type MediaRef, type TaskRecord } from '../../tasks/types.js';

export interface ImageTaskView {
  id: string;
  action: string;
  status: string;
  prompt: string;
  promptEn: string;
  description: string;
  failReason: string;
  imageUrl: string;
  progress: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  properties: Record<string, unknown>;
  buttons: Array<{ customId: string; emoji: string; label: string; style: number; type: number }>;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

export function mediaUrl(base: string, ref: MediaRef): string {
  return `${base}/ig/image/${ref.key}`;
}

function descriptionOf(task: TaskRecord, request: ImageTaskRequest): string {
  if (task.status === 'MODAL') return 'Waiting for window confirm';
  switch (request.endpoint) {
    case 'imagine':
      return `/imagine ${request.prompt}`;
    case 'blend':
      return `/blend ${task.id} ${request.imageDigests.length}`;
    case 'describe':
      return '/describe';
    case 'shorten':
      return `/shorten ${request.prompt}`;
    case 'swap_face':
      return '/swap_face';
    case 'action':
      return `/up ${request.parent?.id ?? ''} ${request.customId ?? ''}`.trim();
  }
}

function imageOf(task: TaskRecord, request: ImageTaskRequest, result: ImageTaskResult | null): MediaRef | undefined {
  if (task.status !== 'SUCCESS') return undefined;
  return result?.media?.[0] ?? request.inputMedia[0];
}

/**
 * `base`: the address the reading client used; callbacks (no request) use
 * the one recorded when the task was submitted.
 */
export function renderTask(task: TaskRecord, base?: string): ImageTaskView {
  const request = IMAGE_TASKS.request(task);
  const result = IMAGE_TASKS.result(task);
  const image = imageOf(task, request, result);
  const properties: Record<string, unknown> = {
    finalPrompt: result?.finalPrompt ?? '',
    finalZhPrompt: CJK.test(request.prompt) ? request.prompt : '',
    botType: request.botType,
  };
  if (request.customId) properties.customId = request.customId;
  if (request.parent) properties.parentId = request.parent.id;
  if (result?.prompts) properties.prompts = result.prompts;
  return {
    id: task.id,
    action: task.action,
    status: task.status,
    prompt: result?.prompt ?? request.prompt,
    promptEn: result?.promptEn ?? request.promptEn,
    description: result?.description ?? descriptionOf(task, request),
    failReason: task.failReason ?? '',
    imageUrl: image ? mediaUrl(base ?? request.publicBase, image) : '',
    progress: isFinal(task.status) ? '100%' : `${task.progress}%`,
    state: request.state,
    submitTime: task.submitTime,
    startTime: task.startTime ?? 0,
    finishTime: task.finishTime ?? 0,
    properties,
    buttons: task.status === 'SUCCESS' && result ? result.buttons.map(({ customId, emoji, label, style, type }) => ({ customId, emoji, label, style, type })) : [],
  };
}
