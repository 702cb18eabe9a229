/**
 * The stored state a request builds on: the earlier turns named by
 * `previous_response_id`, the items its `item_reference` inputs point at,
 * and the stored reasoning items it sends back without their state.
 * Everything is scoped to the key: another key's response is unknown here.
 *
 * The earlier turns are read in one query through the stored chain. When only
 * native channels can serve the model, that read waits until a channel turns
 * out to need the conversation in full (the one holding the previous response
 * upstream only needs its id), so long conversations do not cost a read of
 * every turn on each request.
 */
import type { FoundItem, ResponseRepository, StoredItem, StoredResponse } from '../../storage/responses.js';
import { previousResponseNotFound } from '../../dialects/openai/errors.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';

export interface History {
  previous?: StoredResponse;
  /** The earlier turns, oldest first, the previous response last; only the previous one until `complete`. */
  turns: StoredResponse[];
  /** Whether `turns` holds the whole conversation. */
  complete: boolean;
  /** Referenced item id → the item and the record holding it. */
  references: Map<string, FoundItem>;
}

export const emptyHistory: History = { turns: [], complete: true, references: new Map() };

export interface HistoryQuery {
  keyId: string;
  previousResponseId: string | null | undefined;
  input: readonly InputItem[];
  /** Read every earlier turn now (a translating channel may serve the request). */
  wholeConversation: boolean;
}

/** The stored conversation a request continues; a request that continues none gets the empty history at once, no promise. */
export function loadHistory(repository: ResponseRepository, query: HistoryQuery): History | Promise<History> {
  const referenced = referencedIds(query.input);
  if (!query.previousResponseId && referenced.length === 0) return emptyHistory;
  return loadStoredHistory(repository, query, referenced);
}

async function loadStoredHistory(repository: ResponseRepository, query: HistoryQuery, referenced: string[]): Promise<History> {
  const history: History = { turns: [], complete: true, references: new Map() };
  if (query.previousResponseId) {
    const previous = await repository.get(query.previousResponseId, query.keyId);
    if (!previous) throw previousResponseNotFound(query.previousResponseId);
    history.previous = previous;
    history.turns = [previous];
    history.complete = previous.chain.length === 0;
    if (query.wholeConversation) await completeHistory(repository, query.keyId, history);
  }
  const missing: string[] = [];
  for (const id of referenced) {
    const found = findInTurns(history.turns, id);
    if (found) history.references.set(id, found);
    else missing.push(id);
  }
  if (missing.length > 0) for (const [id, found] of await repository.findItems(missing, query.keyId)) history.references.set(id, found);
  return history;
}

/** Reads the turns before the previous one, once. */
export async function completeHistory(repository: ResponseRepository, keyId: string, history: History): Promise<void> {
  if (history.complete || !history.previous) return;
  history.turns = [...(await repository.getMany(history.previous.chain, keyId)), history.previous];
  history.complete = true;
}

function referencedIds(input: readonly InputItem[]): string[] {
  const ids = new Set<string>();
  for (const item of input) if (itemKind(item) === 'item_reference' || isBareReasoning(item)) ids.add(item.id as string);
  return [...ids];
}

/**
 * A reasoning item sent back without its `encrypted_content` (the client did
 * not ask for it) names, by its id, the stored item that holds the state.
 */
export function isBareReasoning(item: InputItem): boolean {
  return itemKind(item) === 'reasoning' && typeof item.id === 'string' && item.id !== '' && (item as { encrypted_content?: unknown }).encrypted_content == null;
}

function findInTurns(turns: readonly StoredResponse[], id: string): FoundItem | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const record = turns[i];
    const item = (record.response.output ?? []).find((candidate: StoredItem) => candidate.id === id) ?? record.input.find((candidate) => candidate.id === id);
    if (item) return { item, record };
  }
  return undefined;
}
