/** The result record of a finished simulated task: prompts, seed, buttons, layout. */
import type { ImageTaskRequest, ImageTaskResult, StoredButton } from '../../../tasks/image-contract.js';
import { hashHex } from '../hash.js';
import { describeButtons, gridButtons, shortenButtons, upscaleButtons } from './buttons.js';
import type { SimulatedJob } from './plan.js';
import { finalPromptOf, numbered } from './texts.js';

/** A job hash in the UUID form real services put in their customIds, drawn from the task id. */
export function jobHash(taskId: string): string {
  const hex = hashHex(`job|${taskId}`, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function buttonsFor(action: string, request: ImageTaskRequest, job: SimulatedJob, hash: string): StoredButton[] {
  if (job.layout === 'text') return request.endpoint === 'shorten' ? shortenButtons(job.prompts?.length ?? 0) : describeButtons();
  if (action === 'SWAP_FACE') return [];
  if (job.layout === 'single') return upscaleButtons(hash, request.botType, job.upscaledTwice);
  return gridButtons(hash);
}

export function resultFor(taskId: string, action: string, request: ImageTaskRequest, job: SimulatedJob): ImageTaskResult {
  const hash = jobHash(taskId);
  const base: ImageTaskResult = {
    layout: job.layout,
    finalPrompt: finalPromptOf(request.promptEn, request.botType),
    buttons: buttonsFor(action, request, job, hash),
    seed: String(job.seed),
    hash,
    aspect: `${job.aspect[0]}:${job.aspect[1]}`,
  };
  if (job.paint) base.tiles = job.paint.tiles;
  if (job.layout !== 'text') return base;
  const listed = numbered(job.prompts ?? []);
  if (request.endpoint === 'shorten') {
    return { ...base, prompts: job.prompts, description: `**Shortened prompts**\n\n${listed}` };
  }
  // A description's text takes the place of the prompt, as the real service reports it.
  return { ...base, prompts: job.prompts, prompt: listed, promptEn: listed, finalPrompt: listed };
}
