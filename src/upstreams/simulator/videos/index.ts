/**
 * The video side of the built-in `simulator` upstream: runs video tasks on the
 * engine's clock and, when one succeeds, renders a real H.264 MP4 of the
 * requested duration and aspect ratio (scaled down), a PNG thumbnail and a
 * PNG sprite sheet. Settings and behaviour: README.md next to this file.
 */
import { VIDEO_TASKS, type VideoSubmitPayload, type VideoTaskRequest, type VideoTaskUpstream } from '../../../tasks/video-contract.js';
import { upstreamDataJson, upstreamDataOf } from '../../../tasks/task-kind.js';
import type { MediaItem, Observation, SubmitOutcome, TaskCall, TaskRecord } from '../../../tasks/types.js';
import { renderPlan, seedOf } from './plan.js';
import { failsTask, readVideoSimulatorSettings } from './settings.js';
import { observeVideo, type VideoSchedule } from './timeline.js';
import { backdropOf, renderVideo } from './worker.js';

interface SimulatorData {
  schedule: VideoSchedule;
  seed: number;
  backdrop?: number[];
}

const requestOf = (task: TaskRecord): VideoTaskRequest => VIDEO_TASKS.request(task);
const dataOf = (task: TaskRecord) => upstreamDataOf<SimulatorData>(task);

async function submit(task: TaskRecord, payload: VideoSubmitPayload, call: TaskCall): Promise<SubmitOutcome> {
  call.signal.throwIfAborted();
  const settings = readVideoSimulatorSettings(call.channel);
  const request = requestOf(task);
  const now = Date.now();
  const schedule: VideoSchedule = { startAt: now, durationMs: Math.round(settings.taskSeconds * 1000) };
  if (failsTask(settings, request.model, task.action)) {
    schedule.failReason = `simulated failure of ${request.model} (channel setting failTasks)`;
  }
  const data: SimulatorData = { schedule, seed: seedOf(request, payload.parent?.seed) };
  // The reference image's colours become the picture's backdrop (PNG; other formats keep the pattern).
  const backdrop = payload.image?.contentType === 'image/png' ? await backdropOf(payload.image.bytes) : null;
  if (backdrop) data.backdrop = backdrop;
  return { upstreamId: `simv-${task.id}`, status: 'SUBMITTED', upstreamData: upstreamDataJson(data), startTime: now };
}

async function poll(tasks: TaskRecord[], call: TaskCall): Promise<Map<string, Observation>> {
  const now = Date.now();
  const fps = readVideoSimulatorSettings(call.channel).fps;
  const out = new Map<string, Observation>();
  for (const task of tasks) {
    const data = dataOf(task);
    if (!data?.schedule) continue;
    const observation = observeVideo(data.schedule, now);
    if (observation.status === 'SUCCESS') observation.result = { fps: requestOf(task).fps ?? fps, seed: data.seed };
    out.set(task.id, observation);
  }
  return out;
}

async function fetchMedia(task: TaskRecord, _observation: Observation, call: TaskCall): Promise<MediaItem[]> {
  const settings = readVideoSimulatorSettings(call.channel);
  const data = dataOf(task);
  const request = requestOf(task);
  const plan = renderPlan(request, data?.seed ?? seedOf(request), settings.videoSize, settings.fps, data?.backdrop);
  const output = await renderVideo(plan);
  // The thread handed its buffers over: wrap them, no copy.
  const wrap = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [
    { bytes: wrap(output.video), contentType: 'video/mp4', width: plan.width, height: plan.height, role: 'video' },
    { bytes: wrap(output.thumbnail), contentType: 'image/png', width: plan.width, height: plan.height, role: 'thumbnail' },
    { bytes: wrap(output.spritesheet), contentType: 'image/png', role: 'spritesheet' },
  ];
}

export const videoSimulator: VideoTaskUpstream = {
  kind: VIDEO_TASKS,
  type: 'simulator',
  maxPollBatch: 500,
  remixes: true,
  submit,
  poll,
  fetchMedia,
};
