/**
 * Which adapter takes a client's dialect as it is on a channel: the channel
 * type's own adapter when its `nativeDialect` is the client's, or, for a type
 * that speaks several dialects (`nativeFor`), the part that speaks this one
 * for the model the channel sends. The upstream model is worked out only for
 * such types, so the common check costs one comparison.
 */
import { upstreamModelFor, type Channel } from '../core/channel.js';
import type { Dialect } from '../core/chat.js';
import type { UpstreamAdapter } from './types.js';

export function nativeAdapter(adapter: UpstreamAdapter, dialect: Dialect, channel: Channel, model: string): UpstreamAdapter | undefined {
  if (adapter.nativeFor) return adapter.nativeFor(dialect, upstreamModelFor(channel, model), channel);
  return adapter.nativeDialect === dialect ? adapter : undefined;
}
