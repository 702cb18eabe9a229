/**
 * The models a key can discover: every name some enabled channel serves and
 * the key may use. A channel lists the exact names in its `models`, the
 * names its `modelMapping` offers, and, for channels whose `models` are
 * patterns (`*`, `claude-*`), the names its `settings.listedModels` declares.
 * Patterns themselves cannot be listed. The built-in simulator, which serves
 * every name, lists a few well-known ones so a fresh gateway shows something.
 */
import { matchesAnyModelPattern } from '../../core/model-pattern.js';
import type { ClientKey } from '../../http/auth.js';
import type { Channel } from '../../core/channel.js';

export interface ListedModel {
  id: string;
  /** The channel type of the first channel that serves it (the one routing prefers). */
  ownedBy: string;
}

/** What the built-in simulator lists: one name of each family its answers imitate. */
export const SIMULATOR_LISTED_MODELS: readonly string[] = ['claude-sonnet-4-5', 'gpt-4o-mini', 'gpt-5.1', 'gemini-2.5-flash', 'text-embedding-3-small', 'sora-2'];

export function listedModelsOf(channel: Channel): string[] {
  const names = channel.models.filter((entry) => !entry.endsWith('*'));
  names.push(...Object.keys(channel.modelMapping));
  const declared = channel.settings.listedModels;
  if (Array.isArray(declared)) {
    for (const name of declared) if (typeof name === 'string') names.push(name);
  } else if (channel.id === 'builtin-simulator') names.push(...SIMULATOR_LISTED_MODELS);
  return names;
}

export function modelsForKey(channels: readonly Channel[], key: ClientKey): ListedModel[] {
  const seen = new Map<string, ListedModel>();
  for (const channel of channels) {
    if (!channel.enabled) continue;
    for (const id of listedModelsOf(channel)) {
      if (seen.has(id)) continue;
      if (key.record.models && !matchesAnyModelPattern(key.record.models, id)) continue;
      seen.set(id, { id, ownedBy: channel.type === 'simulator' ? 'switchyard' : channel.type });
    }
  }
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
}
