/**
 * Input items as the gateway keeps them: a string input becomes one user
 * message, every item gets an id (the listing endpoint shows one on each), and
 * what a client sees of an item depends on what it asked to `include`.
 */
import { newResponsesId, type IdPrefix } from './ids.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';

export function inputAsItems(input: string | InputItem[]): InputItem[] {
  if (typeof input !== 'string') return input;
  return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
}

/** Item types that get an id of the gateway's when they come without one (upstreams never see these ids). */
const prefixByKind: Record<string, IdPrefix> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  computer_call_output: 'cuo',
};

/** A copy of each item with an explicit `type` and, for the common kinds, an id, for storing. */
export function withIds(items: readonly InputItem[]): InputItem[] {
  return items.map((item) => {
    const kind = itemKind(item) ?? 'item';
    const prefix = prefixByKind[kind];
    if ((typeof item.id === 'string' && item.id !== '') || !prefix) return { ...item, type: kind };
    return { ...item, type: kind, id: newResponsesId(prefix) };
  });
}

export interface IncludeOptions {
  encryptedReasoning: boolean;
}

export function includeOptions(include: readonly string[] | null | undefined): IncludeOptions {
  return { encryptedReasoning: include?.includes('reasoning.encrypted_content') ?? false };
}

/** The item as a client sees it: reasoning keeps its `encrypted_content` only when the client asked for it. */
export function visibleItem<T extends Record<string, unknown>>(item: T, options: IncludeOptions): T {
  if (options.encryptedReasoning || item.type !== 'reasoning' || !('encrypted_content' in item)) return item;
  const { encrypted_content: _hidden, ...rest } = item;
  return rest as T;
}

export function visibleItems<T extends Record<string, unknown>>(items: readonly T[], options: IncludeOptions): T[] {
  return options.encryptedReasoning ? items.slice() : items.map((item) => visibleItem(item, options));
}
