/**
 * A task of the asynchronous video-synthesis service as an engine
 * observation: PENDING → SUBMITTED, RUNNING → IN_PROGRESS, SUCCEEDED →
 * SUCCESS (the video at `output.video_url`), FAILED, CANCELED and UNKNOWN →
 * FAILURE with the service's code and message. The service reports no
 * percentage, so progress steps 10 (waiting) and 50 (running).
 */
import type { Observation } from '../../tasks/types.js';

export interface TaskAnswer {
  output?: {
    task_id?: unknown;
    task_status?: unknown;
    video_url?: unknown;
    end_time?: unknown;
    code?: unknown;
    message?: unknown;
  };
  code?: unknown;
  message?: unknown;
}

/** `2025-01-08 16:43:19.123` (the service's clock, UTC+8) or ISO text, as epoch ms. */
function endTimeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const local = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(value);
  const parsed = Date.parse(local ? `${local[1]}T${local[2]}+08:00` : value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

export function observationOf(answer: TaskAnswer): Observation | undefined {
  const output = answer.output ?? {};
  const word = typeof output.task_status === 'string' ? output.task_status.toUpperCase() : '';
  switch (word) {
    case 'PENDING':
      return { status: 'SUBMITTED', progress: 10 };
    case 'RUNNING':
      return { status: 'IN_PROGRESS', progress: 50 };
    case 'SUCCEEDED': {
      const url = typeof output.video_url === 'string' ? output.video_url : '';
      if (!url) return { status: 'FAILURE', progress: 100, failReason: 'the upstream finished without a video address' };
      const observation: Observation = { status: 'SUCCESS', progress: 100, mediaUrls: [url] };
      const finishTime = endTimeOf(output.end_time);
      if (finishTime !== undefined) observation.finishTime = finishTime;
      return observation;
    }
    case 'FAILED':
    case 'CANCELED':
    case 'UNKNOWN': {
      const code = typeof output.code === 'string' ? output.code : word === 'CANCELED' ? 'canceled' : undefined;
      const message = typeof output.message === 'string' && output.message ? output.message : `the upstream reported the task ${word.toLowerCase()}`;
      const observation: Observation = { status: 'FAILURE', progress: 0, failReason: message };
      if (code) observation.result = { errorCode: code };
      return observation;
    }
    default:
      return undefined;
  }
}
