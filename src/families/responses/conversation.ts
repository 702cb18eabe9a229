/**
 * The whole conversation a request continues, as one list of items with their
 * provenance: the stored turns (each turn's input, then its output) followed
 * by this request's input, item references replaced by the items they name,
 * reasoning items sent back bare given the sealed state stored with them.
 */
import { GatewayError } from '../../core/errors.js';
import type { StoredResponse } from '../../storage/responses.js';
import { isBareReasoning, type History } from './history.js';
import { isGatewayProof } from './encrypted.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';

export interface SourcedItem {
  item: InputItem;
  /** The stored response this item came from; absent for what the client sent in this request. */
  from?: StoredResponse;
  /** Whether the item was output of `from` (produced by its upstream) rather than its input. */
  output: boolean;
  /** An item_reference that names no stored item. */
  unresolved?: boolean;
}

export function priorItems(history: History): SourcedItem[] {
  // Never a partial conversation: that would silently drop turns.
  if (!history.complete) throw new GatewayError('internal', 'the earlier turns of this conversation were not read before they were needed');
  const items: SourcedItem[] = [];
  for (const turn of history.turns) {
    for (const item of turn.input) items.push({ item, from: turn, output: false });
    for (const item of turn.response.output ?? []) items.push({ item, from: turn, output: true });
  }
  return items;
}

export function currentItems(input: readonly InputItem[], history: History): SourcedItem[] {
  return input.map((item): SourcedItem => {
    if (isBareReasoning(item)) return withStoredState(item, history);
    if (itemKind(item) !== 'item_reference') return { item, output: false };
    const found = history.references.get(item.id as string);
    if (!found) return { item, output: false, unresolved: true };
    const output = (found.record.response.output ?? []).includes(found.item);
    return { item: found.item, from: found.record, output };
  });
}

/** A reasoning item sent back without its state gets the sealed state the gateway stored with it (a native upstream never sees that state). */
function withStoredState(item: InputItem, history: History): SourcedItem {
  const found = history.references.get(item.id as string);
  const stored = (found?.item as { encrypted_content?: unknown } | undefined)?.encrypted_content;
  if (!found || !isGatewayProof(stored)) return { item, output: false };
  return { item: { ...item, encrypted_content: stored } as InputItem, output: false };
}

/** The items of this request as they are stored: references resolved where they could be. */
export function resolvedInput(items: readonly SourcedItem[]): InputItem[] {
  return items.map((sourced) => sourced.item);
}
