/** Whether a request for this model may be translated (some channel serving it does not speak the dialect natively). */
import { servesModel } from '../../core/channel.js';
import type { AppContext } from '../../http/context.js';
import { nativeAdapter } from '../../upstreams/native-adapter.js';

export function mayTranslate(ctx: AppContext, model: string): boolean {
  return ctx.channels.all().some((channel) => {
    if (!channel.enabled || !ctx.adapters.has(channel.type) || !servesModel(channel, model)) return false;
    return nativeAdapter(ctx.adapters.get(channel.type), 'responses', channel, model)?.passThrough === undefined;
  });
}
