/**
 * Where an image task goes: channels whose type can run image tasks and whose
 * `models` match the routing name (`ig_imagine`, …), by priority and weight,
 * each with an account that passes the request's filter. No channel, or no
 * matching account, is "account unavailable".
 */
import { GatewayError } from '../../core/errors.js';
import { unservedModelMessage } from '../../core/model-name.js';
import { orderCandidates } from '../../routing/select.js';
import type { AppContext } from '../../http/context.js';
import { IMAGE_FAMILY } from '../../tasks/image-contract.js';
import type { Channel } from '../../core/channel.js';
import { matchesFilter, type ImageAccount } from '../../tasks/image-accounts.js';
import { accountsOf } from '../../upstreams/accounts-setting.js';
import type { AccountFilter } from './schema.js';

export interface Target {
  channel: Channel;
  account: ImageAccount;
}

export function chooseTargets(ctx: AppContext, routeName: string, filter?: AccountFilter): Target[] {
  const types = ctx.tasks.channelTypes(IMAGE_FAMILY);
  const channels = orderCandidates(ctx.channels.all(), routeName, {
    isHealthy: ctx.health.isHealthy,
    accepts: (channel) => types.has(channel.type),
  });
  if (channels.length === 0) {
    throw new GatewayError('permission', unservedModelMessage(routeName, 'image channel'));
  }
  const targets: Target[] = [];
  for (const channel of channels) {
    const matching = accountsOf(channel).filter((account) => matchesFilter(account, filter));
    // Spread work over a channel's matching accounts.
    if (matching.length > 0) targets.push({ channel, account: matching[Math.floor(Math.random() * matching.length)] });
  }
  if (targets.length === 0) {
    throw new GatewayError('permission', 'no upstream account matches the accountFilter');
  }
  return targets;
}
