/**
 * The Converse protocol: speaking Amazon Bedrock's Converse API (one shape
 * for every model Bedrock serves) at the endpoint a provider supplies
 * (bedrock). Converse is no client dialect: every client is translated, so
 * the adapter has no native dialect and no pass-through.
 */
import type { UpstreamAdapter } from '../../types.js';
import { converseChat } from './chat.js';
import { converseRequestPreparer, type ConversePrepared } from './convert-request.js';
import type { ConverseEndpoint } from './endpoint.js';
import type { ConverseSettings } from './settings.js';

export type { ConverseEndpoint } from './endpoint.js';

/** The adapter of a provider of Converse, built once around its endpoint. */
export function converseProtocol<S extends ConverseSettings>(endpoint: ConverseEndpoint<S>): UpstreamAdapter<S, ConversePrepared> {
  return {
    type: endpoint.type,
    prepare: converseRequestPreparer(endpoint.type),
    chat: converseChat(endpoint),
  };
}
