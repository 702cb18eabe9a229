/**
 * The family's own queries on the task table: a key's videos page by page
 * (newest first by default, a cursor naming the last id seen) and deleting a
 * finished video with its files. Everything else goes through the engine.
 */
import { GatewayError } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { toTaskRecord } from '../../tasks/rows.js';
import { taskDb } from '../../tasks/schema.js';
import { isFinal, type TaskRecord } from '../../tasks/types.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import { requestOf, resultOf } from './render.js';

export interface ListQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface ListPage {
  tasks: TaskRecord[];
  hasMore: boolean;
}

export async function listVideos(ctx: AppContext, keyId: string, query: ListQuery): Promise<ListPage> {
  const db = taskDb(ctx.store);
  let select = db.selectFrom('tasks').selectAll().where('key_id', '=', keyId).where('family', '=', VIDEO_FAMILY);
  if (query.after !== undefined) {
    const cursor = await ctx.tasks.tasks.getOwned(query.after, keyId, VIDEO_FAMILY);
    if (!cursor) throw new GatewayError('invalid_request', `after: no video ${query.after}`, { param: 'after' });
    const before = query.order === 'desc' ? '<' : '>';
    select = select.where((eb) => eb.or([eb('submit_time', before, cursor.submitTime), eb.and([eb('submit_time', '=', cursor.submitTime), eb('id', before, cursor.id)])]));
  }
  const rows = await select
    .orderBy('submit_time', query.order)
    .orderBy('id', query.order)
    .limit(query.limit + 1)
    .execute();
  return { tasks: rows.slice(0, query.limit).map(toTaskRecord), hasMore: rows.length > query.limit };
}

/** Deletes a finished video and its stored files. A video still processing cannot be deleted. */
export async function deleteVideo(ctx: AppContext, task: TaskRecord): Promise<void> {
  if (!isFinal(task.status)) {
    throw new GatewayError('invalid_request', `video ${task.id} is still processing; it can be deleted once it succeeded or failed`);
  }
  const deleted = await taskDb(ctx.store).deleteFrom('tasks').where('id', '=', task.id).where('version', '=', task.version).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new GatewayError('not_found', `video ${task.id} not found`);
  const keys = [...(resultOf(task)?.media ?? []), ...(requestOf(task).inputReference ? [requestOf(task).inputReference!] : [])].map((ref) => ref.key);
  await Promise.all(keys.map((key) => ctx.tasks.media.remove(key).catch(() => undefined)));
}
