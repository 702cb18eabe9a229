/**
 * The pass-through request for one native channel. The client's bytes go as
 * they are unless the request builds on stored state:
 * - `previous_response_id` names the gateway's id. When the channel that
 *   produced that response stored it upstream, the upstream's own id is sent
 *   instead; otherwise (another channel, after a failover) the conversation is
 *   sent in full as input items, rebuilt from the gateway's store.
 * - `item_reference` inputs stay references on the channel that holds the
 *   item; elsewhere they are replaced by the stored item.
 * Stored items are adapted for a channel that did not produce them: ids it
 * would not know are dropped, assistant messages become plain text messages,
 * records of hosted searches are left out (their effect is in the text), so
 * is an earlier turn's `compaction_trigger`, and
 * reasoning is kept only with an `encrypted_content` from a native upstream.
 * Reasoning the client sends back with state the gateway sealed (another
 * provider's) is left out too, and a compaction the gateway performed is sent
 * as its summary, a user message (the upstream cannot read the gateway's
 * token; see compaction.ts).
 */
import type { StoredResponse } from '../../storage/responses.js';
import type { Channel } from '../../core/channel.js';
import type { PassThroughRequest } from '../../upstreams/types.js';
import { priorItems, type SourcedItem } from './conversation.js';
import { isGatewayProof } from './encrypted.js';
import { isGatewayCompaction, summaryMessage } from './compaction.js';
import type { ResponsesExchange } from './exchange.js';
import { completeHistory } from './history.js';
import { inputAsItems } from './items.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';

export interface ClientBody {
  rawBody: Buffer;
  body: Record<string, unknown>;
  stream: boolean;
}

/** The body for a native channel; at once (no promise) when the request continues nothing stored. */
export function nativeRequest(exchange: ResponsesExchange, client: ClientBody, channel: Channel): PassThroughRequest | undefined | Promise<PassThroughRequest | undefined> {
  if (!continuesStored(exchange)) return withoutGatewayState(client, exchange.openSummary);
  return withStoredState(exchange, client, channel).then((built) => withoutGatewayState(built ?? client, exchange.openSummary) ?? built);
}

/** Whether the request continues a stored response or references stored items (references to nothing stored stay as they are: the upstream may know them). */
function continuesStored(exchange: ResponsesExchange): boolean {
  return exchange.options.history.previous !== undefined || exchange.options.current.some(isStoredReference);
}

const isStoredReference = (sourced: SourcedItem) => sourced.from !== undefined;

/**
 * Reasoning items whose `encrypted_content` this gateway sealed on a
 * translated turn hold another provider's state, which the upstream cannot
 * read and would refuse: they are left out. A compaction item the gateway
 * sealed becomes its summary (left out when it cannot be opened: another
 * secret key). Undefined when there are none.
 */
function withoutGatewayState(request: ClientBody, openSummary: (item: InputItem) => string | undefined): PassThroughRequest | undefined {
  const input = request.body.input;
  const sealedReasoning = (item: InputItem) => itemKind(item) === 'reasoning' && isGatewayProof(item.encrypted_content);
  if (!Array.isArray(input) || !(input as InputItem[]).some((item) => sealedReasoning(item) || isGatewayCompaction(item))) return undefined;
  const kept = (input as InputItem[]).flatMap((item): InputItem[] => {
    if (sealedReasoning(item)) return [];
    if (!isGatewayCompaction(item)) return [item];
    const summary = openSummary(item);
    return summary === undefined ? [] : [summaryMessage(summary)];
  });
  const body = { ...request.body, input: kept };
  return { rawBody: Buffer.from(JSON.stringify(body)), body, stream: request.stream };
}

/** Only for a request that continues something stored (see continuesStored). */
async function withStoredState(exchange: ResponsesExchange, client: ClientBody, channel: Channel): Promise<PassThroughRequest | undefined> {
  const { history, current, repository, keyId } = exchange.options;
  const hasReferences = current.some(isStoredReference);

  const body: Record<string, unknown> = { ...client.body };
  let prior: InputItem[] = [];
  const previous = history.previous;
  if (previous) {
    if (heldBy(previous, channel)) body.previous_response_id = previous.upstreamResponseId;
    else {
      delete body.previous_response_id;
      await completeHistory(repository, keyId, history);
      prior = priorItems(history).flatMap((sourced) => adapt(sourced, channel));
    }
  }
  const input = hasReferences ? current.flatMap((sourced) => adapt(sourced, channel)) : client.body.input;
  if (prior.length > 0) body.input = [...prior, ...inputAsItems(input as string | InputItem[])];
  else body.input = input;
  return { rawBody: Buffer.from(JSON.stringify(body)), body, stream: client.stream };
}

/** Whether this channel's upstream holds the stored response under its own id. */
function heldBy(record: StoredResponse, channel: Channel): boolean {
  return record.native && record.channelId === channel.id && record.upstreamResponseId !== null;
}

const idsUnknownElsewhere = new Set(['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'computer_call_output']);

function adapt(sourced: SourcedItem, channel: Channel): InputItem[] {
  const { item, from } = sourced;
  // Not from the store: exactly what the client sent.
  if (!from) return [item];
  // Output the channel's upstream produced and stored: it resolves a reference to it.
  if (sourced.output && heldBy(from, channel) && typeof item.id === 'string') return [{ type: 'item_reference', id: item.id }];
  const kind = itemKind(item);
  switch (kind) {
    case 'web_search_call':
    case 'file_search_call':
    // An earlier turn's request for a compaction, not conversation: its answer follows it.
    case 'compaction_trigger':
      return [];
    case 'reasoning': {
      const encrypted = item.encrypted_content;
      const readable = typeof encrypted === 'string' && encrypted !== '' && !isGatewayProof(encrypted);
      return readable ? [item] : [];
    }
    case 'message':
      return [plainMessage(item)];
    default: {
      if (!kind || !idsUnknownElsewhere.has(kind)) return [item];
      const { id: _unknown, status: _status, ...rest } = item;
      return [rest];
    }
  }
}

/** An assistant message as a plain text message; other roles without the gateway's id. */
function plainMessage(item: InputItem): InputItem {
  const { id: _unknown, status: _status, ...rest } = item;
  if (rest.role !== 'assistant' || !Array.isArray(rest.content)) return rest;
  const text = (rest.content as Array<Record<string, unknown>>).map((part) => (typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : '')).join('');
  return { type: 'message', role: 'assistant', content: text };
}
