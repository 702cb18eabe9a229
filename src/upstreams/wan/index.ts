/**
 * The `wan` upstream: an asynchronous video-synthesis service. A task is
 * created with `X-DashScope-Async: enable` (text, image, keyframe and
 * audio-combined video, resources by URL, size as `W*H` or a tier), polled
 * with `GET /api/v1/tasks/{id}` until it ends, and its video downloaded from
 * the address the service names, so the gateway serves it past that link's
 * lifetime. The service makes no thumbnails and does not remix.
 */
import { GatewayError } from '../../core/errors.js';
import { VIDEO_TASKS, type VideoSubmitPayload, type VideoTaskRequest, type VideoTaskUpstream } from '../../tasks/video-contract.js';
import { upstreamModelFor } from '../../core/channel.js';
import type { MediaItem, Observation, SubmitOutcome, TaskCall, TaskRecord } from '../../tasks/types.js';
import { jsonObjectAnswer } from '../http.js';
import { requestTaskJson } from '../task-json.js';
import { eachBounded } from '../transfer.js';
import { downloadVideo } from './download.js';
import { synthesisRequest } from './request.js';
import { readWanSettings } from './settings.js';
import { observationOf, type TaskAnswer } from './status.js';

const POLL_CONCURRENCY = 8;
const requestOf = (task: TaskRecord): VideoTaskRequest => VIDEO_TASKS.request(task);

async function exchange(call: TaskCall, method: 'GET' | 'POST', path: string, body?: unknown): Promise<TaskAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['x-dashscope-async'] = 'enable';
  }
  return jsonObjectAnswer(await requestTaskJson<TaskAnswer>(call, { method, path, headers, body }));
}

async function submit(task: TaskRecord, _payload: VideoSubmitPayload, call: TaskCall): Promise<SubmitOutcome> {
  if (task.action === 'REMIX') throw new GatewayError('unsupported_feature', 'remix is not supported by the wan upstream');
  const settings = readWanSettings(call.channel);
  const body = synthesisRequest(requestOf(task), upstreamModelFor(call.channel, requestOf(task).model));
  const answer = await exchange(call, 'POST', settings.submitPath, body);
  const id = answer.output?.task_id;
  if (typeof id !== 'string' || id === '') {
    const message = typeof answer.message === 'string' ? answer.message : 'the upstream answered without a task id';
    throw new GatewayError('upstream_error', message, { retryable: true });
  }
  const observed = observationOf(answer);
  return { upstreamId: id, status: observed?.status === 'IN_PROGRESS' ? 'IN_PROGRESS' : 'SUBMITTED', progress: observed?.progress ?? 0 };
}

async function pollOne(task: TaskRecord, call: TaskCall, taskPath: string): Promise<Observation | undefined> {
  if (!task.upstreamId) return undefined;
  try {
    return observationOf(await exchange(call, 'GET', taskPath.replace('{id}', encodeURIComponent(task.upstreamId))));
  } catch (error) {
    if (error instanceof GatewayError && error.upstreamStatus === 404) {
      return { status: 'FAILURE', progress: task.progress, failReason: 'the upstream no longer knows this task' };
    }
    throw error;
  }
}

async function poll(tasks: TaskRecord[], call: TaskCall): Promise<Map<string, Observation>> {
  const { taskPath } = readWanSettings(call.channel);
  const observed = await eachBounded(tasks, POLL_CONCURRENCY, (task) => pollOne(task, call, taskPath));
  return new Map([...observed].map(([task, observation]) => [task.id, observation]));
}

async function fetchMedia(_task: TaskRecord, observation: Observation, call: TaskCall): Promise<MediaItem[]> {
  const address = observation.mediaUrls?.[0];
  if (!address) throw new GatewayError('upstream_error', 'the upstream named no video address');
  return [await downloadVideo(address, call, readWanSettings(call.channel).maxVideoBytes)];
}

export const wanUpstream: VideoTaskUpstream = {
  kind: VIDEO_TASKS,
  type: 'wan',
  maxPollBatch: 50,
  remixes: false,
  submit,
  poll,
  fetchMedia,
};
