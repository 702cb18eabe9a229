/**
 * An OpenAI-style video's state as an engine observation. The status words
 * are read leniently (services behind this API use several spellings):
 * queued → SUBMITTED, in_progress → IN_PROGRESS, completed → SUCCESS,
 * failed or cancelled → FAILURE. The spec's words (processing, succeeded)
 * read the same way.
 */
import type { Observation, TaskStatus } from '../../tasks/types.js';

export interface UpstreamVideo {
  id?: unknown;
  status?: unknown;
  progress?: unknown;
  completed_at?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

const WORDS: Record<string, TaskStatus> = {};
for (const word of ['queued', 'pending', 'submitted', 'not_start', 'preparing', 'created', 'starting']) WORDS[word] = 'SUBMITTED';
for (const word of ['in_progress', 'processing', 'running', 'generating']) WORDS[word] = 'IN_PROGRESS';
for (const word of ['completed', 'complete', 'success', 'succeeded', 'finished']) WORDS[word] = 'SUCCESS';
for (const word of ['failed', 'failure', 'fail', 'error', 'cancelled', 'canceled']) WORDS[word] = 'FAILURE';

export function statusOfWord(word: unknown): TaskStatus | undefined {
  return typeof word === 'string' ? WORDS[word.toLowerCase()] : undefined;
}

export function observationOf(video: UpstreamVideo): Observation | undefined {
  const status = statusOfWord(video.status);
  if (!status) return undefined;
  const progress = typeof video.progress === 'number' && Number.isFinite(video.progress) ? video.progress : status === 'SUCCESS' ? 100 : 0;
  const observation: Observation = { status, progress };
  if ((status === 'SUCCESS' || status === 'FAILURE') && typeof video.completed_at === 'number') observation.finishTime = video.completed_at * 1000;
  if (status === 'FAILURE') {
    const message = typeof video.error?.message === 'string' && video.error.message ? video.error.message : 'the upstream reported a failure';
    observation.failReason = message;
    if (typeof video.error?.code === 'string' && video.error.code) observation.result = { errorCode: video.error.code };
  }
  return observation;
}
