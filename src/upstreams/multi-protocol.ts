/**
 * One channel type served by several protocol adapters (src/upstreams/protocols/):
 * a cloud that serves Anthropic models in the Messages format and Gemini
 * models in the content-generation format, or a resource that offers both
 * OpenAI APIs. The provider says which part translates a request for an
 * upstream model and which part takes a dialect as it is; the result is one
 * `UpstreamAdapter` the registry lists like any other.
 *
 * A translated request is prepared by its part (its body and plan, decided
 * before routing like every other), and sent by the same part; the native
 * path reaches the part through `nativeFor` (see native-adapter.ts), so this
 * adapter has no pass-through or counting of its own.
 */
import type { Dialect } from '../core/chat.js';
import type { EmbeddingRequest } from '../core/embedding.js';
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../core/channel.js';
import type { Prepared, PrepareOptions, UpstreamAdapter, UpstreamCall } from './types.js';

export interface ProtocolParts<Settings> {
  /** The channel type, as the registry lists it. */
  readonly type: string;
  /** The part a translated request for this upstream model is prepared and sent by. */
  translatedBy(upstreamModel: string, settings: Settings): UpstreamAdapter<Settings>;
  /** The part that takes `dialect` as it is for this upstream model on this channel, if any. */
  nativeBy(dialect: Dialect, upstreamModel: string, channel: Channel): UpstreamAdapter<Settings> | undefined;
  /** The part that computes embeddings for this upstream model, if the type has any. */
  embeddedBy?(upstreamModel: string): UpstreamAdapter<Settings> | undefined;
}

/** A part's prepared request, with the part that will send it. */
interface PartPrepared<Settings> extends Prepared<unknown> {
  readonly part: UpstreamAdapter<Settings>;
  readonly inner: Prepared<unknown>;
}

export function multiProtocolAdapter<Settings>(parts: ProtocolParts<Settings>): UpstreamAdapter<Settings, PartPrepared<Settings>> {
  const adapter: UpstreamAdapter<Settings, PartPrepared<Settings>> = {
    type: parts.type,
    nativeFor: (dialect, upstreamModel, channel) => {
      const part = parts.nativeBy(dialect, upstreamModel, channel);
      return part?.passThrough ? (part as UpstreamAdapter) : undefined;
    },
    prepare(request, options: PrepareOptions<Settings>) {
      const part = parts.translatedBy(options.upstreamModel, options.settings);
      const inner = part.prepare(request, options);
      return { body: inner.body, decisions: inner.decisions, part, inner };
    },
    chat: (prepared, request, call) => prepared.part.chat(prepared.inner, request, call),
    // State is sealed with the origin of the part that served the model, which its converters take back.
    reasoningOrigin: (prepared) => prepared.part.reasoningOrigin?.(prepared.inner) ?? prepared.part.type,
  };
  if (parts.embeddedBy) {
    const embeddedBy = parts.embeddedBy;
    adapter.embed = (request: EmbeddingRequest, call: UpstreamCall) => {
      const part = embeddedBy(call.upstreamModel);
      // Another channel may serve the model: this one fails over, it does not refuse.
      if (!part?.embed) throw new GatewayError('upstream_error', `the ${parts.type} channel computes no embeddings for ${call.upstreamModel}`, { retryable: true });
      return part.embed(request, call);
    };
  }
  return adapter;
}
