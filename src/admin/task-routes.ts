/**
 * The admin API's view of asynchronous tasks (images, videos): pages newest
 * first, one task's detail (what its client sees, its history, its callback
 * deliveries) and its stored media (permission `tasks.read`; a team admin sees
 * their teams' tasks only). Upstream ids,
 * accounts and callback query strings are never shown.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import type { DeliveryRecord } from '../tasks/deliveries.js';
import type { MediaRef, TaskRecord } from '../tasks/types.js';
import { page, parseQuery, taskListQuery } from './queries.js';
import { reachFor, requireReach, teamFilter } from './reach.js';

export function registerTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const engine = ctx.tasks;

  // A task of a team out of the caller's reach is not found.
  const taskOr404 = async (request: FastifyRequest, id: string): Promise<TaskRecord> => {
    const reach = reachFor(request, 'tasks.read');
    const task = await engine.tasks.get(id);
    if (!task) throw new GatewayError('not_found', `no task with id "${id}"`);
    requireReach(reach, task.teamId, `no task with id "${id}"`);
    return task;
  };
  const needs = { config: { permission: 'tasks.read' as const } };

  app.get('/tasks', needs, async (request) => {
    const { cursor, limit = 50, teamId, ...filters } = parseQuery(taskListQuery(), request.query);
    const { teamId: one, teamIds } = teamFilter(reachFor(request, 'tasks.read'), teamId);
    const tasks = await engine.tasks.list({ ...filters, teamIds: one === undefined ? teamIds : [one], after: cursor, limit: limit + 1 });
    const { data, hasMore, nextCursor } = page(tasks, limit);
    return { data: data.map((task) => taskView(ctx, task)), hasMore, nextCursor };
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', needs, async (request) => {
    const task = await taskOr404(request, request.params.id);
    const deliveries = await engine.deliveries.listForTask(task.id);
    return { ...taskView(ctx, task), clientView: engine.family(task.family)?.render(task) ?? null, history: historyOf(task, deliveries), deliveries: deliveries.map(deliveryView) };
  });

  app.get<{ Params: { id: string; index: string } }>('/tasks/:id/media/:index', needs, async (request, reply) => {
    const task = await taskOr404(request, request.params.id);
    const ref = mediaOf(task)[Number(request.params.index)];
    const object = ref && (await engine.media.open(ref.key));
    if (!object) throw new GatewayError('not_found', `task ${task.id} has no media ${request.params.index}`);
    reply.code(200).header('content-type', object.contentType).header('content-length', String(object.size)).header('cache-control', 'private, max-age=3600');
    return reply.send(object.stream);
  });
}

function mediaOf(task: TaskRecord): MediaRef[] {
  const media = (task.result as { media?: MediaRef[] } | null)?.media;
  return Array.isArray(media) ? media : [];
}

function taskView(ctx: AppContext, task: TaskRecord) {
  const rendered = ctx.tasks.family(task.family)?.render(task) as { buttons?: Array<{ customId?: string; label?: string; emoji?: string }> } | undefined;
  const prompt = task.request.prompt;
  return {
    id: task.id,
    family: task.family,
    action: task.action,
    status: task.status,
    progress: task.progress,
    keyId: task.keyId,
    channelId: task.channelId,
    model: ctx.tasks.family(task.family)?.modelOf(task) ?? null,
    prompt: typeof prompt === 'string' ? prompt : null,
    cost: task.cost,
    billing: task.billing,
    failReason: task.failReason,
    submitTime: task.submitTime,
    startTime: task.startTime,
    finishTime: task.finishTime,
    pollCount: task.pollCount,
    createdAt: task.createdAt,
    media: mediaOf(task).map((ref, index) => ({
      url: `/admin/tasks/${task.id}/media/${index}`,
      contentType: ref.contentType,
      width: ref.width ?? null,
      height: ref.height ?? null,
      role: ref.role ?? null,
    })),
    buttons: (Array.isArray(rendered?.buttons) ? rendered.buttons : []).map((button) => ({ customId: button.customId ?? '', label: button.label || button.emoji || '' })),
  };
}

/** A callback address without its query string (it may carry the receiver's token). */
function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

function deliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    url: withoutQuery(delivery.url),
    event: delivery.event,
    final: delivery.final,
    status: delivery.status,
    attempts: delivery.attempts,
    maxAttempts: delivery.maxAttempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    deliveredAt: delivery.deliveredAt,
    createdAt: delivery.createdAt,
  };
}

/**
 * What happened to a task, oldest first, from its own times and its
 * deliveries. Polls are counted on the task (`pollCount`), not listed.
 */
function historyOf(task: TaskRecord, deliveries: DeliveryRecord[]) {
  const events: Array<{ at: number; event: string; detail: string | null }> = [{ at: task.submitTime, event: 'submitted', detail: `${task.action} on channel ${task.channelId}` }];
  if (task.startTime !== null) events.push({ at: task.startTime, event: 'started', detail: null });
  if (task.finishTime !== null) {
    events.push({ at: task.finishTime, event: task.failReason ? 'failed' : 'finished', detail: task.failReason ?? `${task.status} after ${task.pollCount} polls` });
  }
  for (const delivery of deliveries) {
    events.push({ at: delivery.createdAt, event: 'callback queued', detail: `${delivery.event} to ${withoutQuery(delivery.url)}` });
    if (delivery.deliveredAt !== null) events.push({ at: delivery.deliveredAt, event: 'callback delivered', detail: `after ${delivery.attempts} attempt(s), status ${delivery.lastStatus ?? '?'}` });
    else if (delivery.status === 'failed')
      events.push({ at: delivery.createdAt, event: 'callback failed', detail: `${delivery.attempts} attempt(s): ${delivery.lastError ?? `status ${delivery.lastStatus ?? '?'}`}` });
  }
  return events.sort((a, b) => a.at - b.at);
}
