/**
 * Buttons and modals. `/ig/submit/action` presses a button of a finished task
 * of the same key: the new task goes to the parent's channel and account. A
 * button that needs more input (custom zoom, vary region, the describe and
 * shorten follow-ups, variations on a remix-mode account) leaves its task in
 * MODAL, answered with code 1 and the task id, until `/ig/submit/modal`
 * supplies the prompt (and mask).
 */
import { endedAttempt } from '../../core/attempt.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { IMAGE_FAMILY, IMAGE_TASKS, type ImageAction, type ImageTaskResult, type ParentSummary } from '../../tasks/image-contract.js';
import type { TaskRecord } from '../../tasks/types.js';
import { imageAccountOf } from '../../tasks/image-accounts.js';
import { actionOf, modalOf, normaliseCustomId, parseCustomId } from './custom-ids.js';
import type { Envelope } from './errors.js';
import { decodeImage } from './images-input.js';
import { renderTask } from './render.js';
import { actionSchema, modalSchema, parseBody } from './schema.js';
import { checkHook, type SubmitContext } from './submissions.js';
import { imageUpstream, log, submissionLeaseMs, submitImageTask, taskCall } from './submit.js';

export async function ownedTask(sc: SubmitContext, id: string): Promise<TaskRecord> {
  const task = await sc.ctx.tasks.tasks.getOwned(id, sc.key.record.id, IMAGE_FAMILY);
  if (!task) throw new GatewayError('not_found', `task ${id} not found`, { param: 'taskId' });
  return task;
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

function summaryOf(parent: TaskRecord): ParentSummary {
  const view = renderTask(parent);
  const result = IMAGE_TASKS.result(parent) ?? ({} as Partial<ImageTaskResult>);
  const summary: ParentSummary = {
    id: parent.id,
    action: parent.action as ImageAction,
    prompt: IMAGE_TASKS.request(parent).prompt,
    finalPrompt: result.finalPrompt ?? view.promptEn,
    layout: result.layout,
  };
  if (result.seed) summary.seed = result.seed;
  if (result.tiles) summary.tiles = result.tiles;
  if (result.prompts) summary.prompts = result.prompts;
  if (result.aspect) summary.aspect = result.aspect;
  return summary;
}

export async function submitAction(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(actionSchema(), body);
  const customId = normaliseCustomId(req.customId);
  const operation = parseCustomId(customId);
  if (!operation) throw invalid('customId', `"${req.customId}" is not a valid customId (form IG::JOB::<operation>::<index>::<hash>)`);
  const parent = await ownedTask(sc, req.taskId);
  if (parent.status !== 'SUCCESS') throw invalid('taskId', `task ${parent.id} is not finished (status ${parent.status})`);
  const parentResult = IMAGE_TASKS.result(parent);
  const button = parentResult?.buttons?.find((candidate) => candidate.customId === customId);
  if (!button) throw invalid('customId', `"${req.customId}" is not a button of task ${parent.id}`);
  const channel = sc.ctx.tasks.channelById(parent.channelId);
  if (!channel?.enabled) throw new GatewayError('permission', `the channel that ran task ${parent.id} is no longer available`);
  const account = imageAccountOf(parent);
  const parentRequest = IMAGE_TASKS.request(parent);
  const summary = summaryOf(parent);
  const modal = modalOf(operation, account);
  const suggested = summary.prompts?.[operation.index - 1];
  const prompt = operation.kind === 'pic_reader' || operation.kind === 'prompt_analyzer' ? (suggested ?? '') : parentRequest.prompt;
  const promptEn = operation.kind === 'pic_reader' || operation.kind === 'prompt_analyzer' ? prompt : parentRequest.promptEn;
  const retry = operation.kind === 'picread_retry';
  return submitImageTask(
    sc.ctx,
    sc.key,
    {
      action: actionOf(operation, parent.action as ImageAction),
      request: {
        endpoint: 'action',
        botType: parentRequest.botType,
        prompt,
        promptEn,
        state: req.state ?? '',
        imageDigests: retry ? parentRequest.imageDigests : [],
        inputMedia: retry ? parentRequest.inputMedia : [],
        customId,
        operation,
        parent: summary,
        ...(modal ? { modal } : {}),
        publicBase: sc.publicBase,
      },
      payload: { images: [], parentUpstreamId: parent.upstreamId ?? undefined, upstreamCustomId: button.upstreamCustomId ?? customId },
      notifyHook: checkHook(sc.ctx, req.notifyHook),
      parent,
      target: { channel, account },
    },
    sc.meta,
  );
}

/** The zoom factor of a custom zoom, from `--zoom <1..2>` in its prompt (added as 2 when absent). */
function customZoom(prompt: string): { prompt: string; zoom: number } {
  const match = /--zoom\s+(\S+)/i.exec(prompt);
  if (!match) return { prompt: `${prompt} --zoom 2`.trim(), zoom: 2 };
  const zoom = Number(match[1]);
  if (!Number.isFinite(zoom) || zoom < 1 || zoom > 2) throw invalid('prompt', '--zoom must be between 1 and 2');
  return { prompt, zoom };
}

export async function submitModal(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(modalSchema(), body);
  const task = await ownedTask(sc, req.taskId);
  if (task.status !== 'MODAL') throw invalid('taskId', `task ${task.id} is not waiting for a modal submission (status ${task.status})`);
  const request = IMAGE_TASKS.request(task);
  const mask = req.maskBase64 === undefined ? undefined : decodeImage(req.maskBase64, 'maskBase64');
  if (request.modal === 'inpaint' && !mask) throw invalid('maskBase64', 'required for Vary (Region): a PNG mask, white where to repaint');
  let prompt = req.prompt?.trim() || request.prompt;
  if (!prompt) throw invalid('prompt', 'required');
  let operation = request.operation;
  if (operation?.kind === 'custom_zoom') {
    const zoom = customZoom(prompt);
    prompt = zoom.prompt;
    operation = { ...operation, zoom: zoom.zoom };
  }
  const { ctx } = sc;
  const engine = ctx.tasks;
  const channel = engine.channelById(task.channelId);
  if (!channel) throw new GatewayError('permission', `the channel of task ${task.id} is no longer available`);
  const now = Date.now();
  // Taken first (compare-and-set), so two modal submissions of one task cannot both go upstream.
  const claimed = await engine.change(task, {
    status: 'NOT_START',
    request: { ...request, prompt, promptEn: prompt, ...(operation ? { operation } : {}), ...(mask ? { maskDigest: mask.digest } : {}) },
    leaseOwner: engine.instanceId,
    leaseUntil: now + submissionLeaseMs(ctx),
    nextPollAt: now + submissionLeaseMs(ctx),
    timeoutAt: now + engine.timeoutFor(IMAGE_FAMILY),
  });
  if (!claimed) throw invalid('taskId', `task ${task.id} was already submitted`);
  const routeName = `ig_${task.action.toLowerCase()}`;
  const startedAt = Date.now();
  try {
    const outcome = await imageUpstream(ctx, channel).confirmModal(claimed, { prompt, mask }, taskCall(ctx, channel, task.accountId));
    const status = outcome.status ?? 'SUBMITTED';
    const updated = await engine.change(claimed, {
      status,
      upstreamId: outcome.upstreamId || claimed.upstreamId,
      upstreamData: outcome.upstreamData ?? null,
      startTime: status === 'SUBMITTED' ? (outcome.startTime ?? Date.now()) : null,
      nextPollAt: engine.firstPollAt(),
    });
    if (!updated) throw new GatewayError('internal', `task ${task.id} changed while its modal was being submitted`);
    log(ctx, sc.key, sc.meta, { routeName, channel, attempts: [endedAttempt(channel, startedAt)], status: 200, cost: 0 });
    const ahead = outcome.queuePosition ?? 0;
    if (status === 'NOT_START' && ahead > 0) {
      return { code: 22, description: `In queue, there are ${ahead} tasks ahead`, properties: { numberOfQueues: ahead }, result: task.id };
    }
    return { code: 1, description: 'Submit success', properties: {}, result: task.id };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    await engine.change(claimed, { status: 'FAILURE', failReason: `the upstream refused the modal: ${error.message}` });
    log(ctx, sc.key, sc.meta, { routeName, channel, attempts: [endedAttempt(channel, startedAt, error)], status: error.status, cost: 0, error });
    throw error;
  }
}
