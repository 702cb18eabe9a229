/**
 * What family A is to the task engine: how its tasks render (fetch, list,
 * callbacks) and the model name they are logged and priced under. The
 * composition root registers it; the upstreams that run image tasks come
 * from the upstream registry.
 */
import { IMAGE_FAMILY, routingName, type ImageAction } from '../../tasks/image-contract.js';
import type { TaskFamily } from '../../tasks/types.js';
import { renderTask } from './render.js';

export const imageTaskFamily: TaskFamily = {
  name: IMAGE_FAMILY,
  render: (task) => renderTask(task),
  modelOf: (task) => routingName(task.action as ImageAction),
};
