/**
 * Reading tasks (fetch one, list by ids, image seed) and uploading images.
 * A key only ever sees its own tasks; another key's task id reads as unknown.
 */
import { GatewayError } from '../../core/errors.js';
import { IMAGE_FAMILY, IMAGE_TASKS } from '../../tasks/image-contract.js';
import { matchesFilter } from '../../tasks/image-accounts.js';
import { accountsOf } from '../../upstreams/accounts-setting.js';
import { success, type Envelope } from './errors.js';
import { ownedTask } from './follow-ups.js';
import { decodeImage } from './images-input.js';
import { mediaUrl, renderTask, type ImageTaskView } from './render.js';
import { listSchema, parseBody, uploadSchema } from './schema.js';
import type { SubmitContext } from './submissions.js';
import { admit, imageUpstream, log, taskCall } from './submit.js';

export async function fetchTask(sc: SubmitContext, id: string): Promise<ImageTaskView> {
  return renderTask(await ownedTask(sc, id), sc.publicBase);
}

export async function listByCondition(sc: SubmitContext, body: unknown): Promise<ImageTaskView[]> {
  const { ids } = parseBody(listSchema(), body);
  const tasks = await sc.ctx.tasks.tasks.listOwned(ids, sc.key.record.id, IMAGE_FAMILY);
  return tasks.map((task) => renderTask(task, sc.publicBase));
}

export async function imageSeed(sc: SubmitContext, id: string): Promise<Envelope> {
  const task = await ownedTask(sc, id);
  const layout = IMAGE_TASKS.result(task)?.layout;
  if (task.status !== 'SUCCESS' || layout === 'text') {
    throw new GatewayError('invalid_request', `task ${id} has no image seed (status ${task.status}${layout === 'text' ? ', no image' : ''})`, { param: 'id' });
  }
  const channel = sc.ctx.tasks.channelById(task.channelId);
  if (!channel) throw new GatewayError('permission', `the channel that ran task ${id} is no longer available`);
  const seed = await imageUpstream(sc.ctx, channel).imageSeed(task, taskCall(sc.ctx, channel, task.accountId));
  return success(seed, 'Success');
}

/**
 * Keeps the images and answers their absolute gateway URLs. A `filter` must
 * match an account of some image channel (code 24 otherwise); the call is
 * priced as `ig_upload`.
 */
export async function uploadImages(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(uploadSchema(), body);
  const images = req.base64Array.map((value, i) => decodeImage(value, `base64Array.${i}`));
  const routeName = 'ig_upload';
  const price = await admit(sc.ctx, sc.key, routeName);
  const cost = price ?? 0;
  if (req.filter && Object.values(req.filter).some((value) => value !== undefined)) {
    const types = sc.ctx.tasks.channelTypes(IMAGE_FAMILY);
    const found = sc.ctx.channels.all().some((channel) => channel.enabled && types.has(channel.type) && accountsOf(channel).some((account) => matchesFilter(account, req.filter)));
    if (!found) throw new GatewayError('permission', 'no upstream account matches the filter');
  }
  const refs = await Promise.all(images.map((image) => sc.ctx.tasks.media.put({ bytes: image.bytes, contentType: image.contentType })));
  // No task carries this charge, so it goes the way chat spend goes: batched with the log row.
  log(sc.ctx, sc.key, sc.meta, { routeName, attempts: [], status: 200, cost, unpriced: price === undefined, spend: true });
  if (cost > 0) {
    sc.ctx.auth.noteSpend(sc.key.record.keyHash, cost);
    void sc.ctx.quota.adjust(sc.key.record.id, cost);
  }
  return success(refs.map((ref) => mediaUrl(sc.publicBase, ref)));
}
