/**
 * Plugs family A into the task engine: how its tasks render (fetch, list,
 * callbacks), the model name they are logged and priced under, and the
 * upstreams that run them.
 */
import type { TaskEngine } from '../../tasks/engine.js';
import { IMAGE_FAMILY, routingName, type ImageAction } from '../../tasks/image-contract.js';
import { igProxyUpstream } from '../../upstreams/ig-proxy/index.js';
import { imageSimulator } from '../../upstreams/simulator/images/index.js';
import { renderTask } from './render.js';

export function registerImageFamily(engine: TaskEngine): void {
  engine.registerFamily({
    name: IMAGE_FAMILY,
    render: (task) => renderTask(task),
    modelOf: (task) => routingName(task.action as ImageAction),
  });
  engine.registerUpstream(imageSimulator);
  engine.registerUpstream(igProxyUpstream);
}
