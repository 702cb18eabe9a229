/**
 * Where a video task goes: channels whose type runs video tasks and whose
 * `models` match the model, by priority and weight. The first channel decides
 * the model's family (see models.ts); channels that would read the request
 * differently are left out of the failover order.
 */
import { GatewayError } from '../../core/errors.js';
import { unservedModelMessage } from '../../core/model-name.js';
import { upstreamModelFor } from '../../core/channel.js';
import { orderCandidates } from '../../routing/select.js';
import type { AppContext } from '../../http/context.js';
import type { Channel } from '../../core/channel.js';
import { VIDEO_FAMILY } from '../../tasks/video-contract.js';
import { kindOf } from './models.js';
import type { ModelChoice } from './validate.js';

export interface ModelRoute {
  choice: ModelChoice;
  channels: Channel[];
}

export function routeModel(ctx: AppContext, model: string): ModelRoute {
  const types = ctx.tasks.channelTypes(VIDEO_FAMILY);
  const ordered = orderCandidates(ctx.channels.all(), model, {
    isHealthy: ctx.health.isHealthy,
    accepts: (channel) => types.has(channel.type),
  });
  if (ordered.length === 0) {
    throw new GatewayError('not_found', unservedModelMessage(model, 'video channel'), { param: 'model' });
  }
  const kindOn = (channel: Channel) => kindOf(model, channel.type, upstreamModelFor(channel, model));
  const first = ordered[0];
  const kind = kindOn(first);
  return {
    choice: { model, kind, upstreamModel: upstreamModelFor(first, model) },
    channels: ordered.filter((channel) => kindOn(channel) === kind),
  };
}
