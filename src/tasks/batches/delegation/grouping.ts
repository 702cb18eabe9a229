/**
 * Which lines of a batch go to an upstream's own batch API, decided
 * before anything is sent, without I/O: each line goes where its model would
 * be routed first (the host's `routeOf`, the same routing an interactive
 * request takes), and only when that channel serves the batch's endpoint
 * through its batch API; every other line stays with the local runner. One
 * group per (channel, upstream model), as OpenAI takes one model per batch
 * (simple, and right for Anthropic too), and at most `maxLines` lines per group.
 */
import type { DelegatedLine } from './schema.js';

/** Where a model's lines would go: a channel with a batch API and the model name it knows. */
export interface DelegationTarget {
  channelId: string;
  upstreamModel: string;
}

export interface DelegationGroup extends DelegationTarget {
  indexes: number[];
}

/** The upstream's limit on requests in one batch (OpenAI: 50,000; Anthropic takes 100,000). */
export const MAX_LINES_PER_UPSTREAM_BATCH = 50_000;

/** Groups the lines that can be delegated; `routeOf` is asked once per model name. */
export function groupForDelegation(lines: readonly DelegatedLine[], routeOf: (model: string) => DelegationTarget | undefined, maxLines = MAX_LINES_PER_UPSTREAM_BATCH): DelegationGroup[] {
  const routes = new Map<string, DelegationTarget | undefined>();
  const open = new Map<string, DelegationGroup>();
  const groups: DelegationGroup[] = [];
  for (const line of lines) {
    const model = line.body.model;
    // A line the route would refuse (no model, a stream) is refused locally, with the answer a request gets.
    if (typeof model !== 'string' || line.body.stream === true) continue;
    if (!routes.has(model)) routes.set(model, routeOf(model));
    const target = routes.get(model);
    if (!target) continue;
    const key = `${target.channelId}\u0000${target.upstreamModel}`;
    let group = open.get(key);
    if (!group || group.indexes.length >= maxLines) {
      group = { channelId: target.channelId, upstreamModel: target.upstreamModel, indexes: [] };
      open.set(key, group);
      groups.push(group);
    }
    group.indexes.push(line.index);
  }
  return groups;
}
