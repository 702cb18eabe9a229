/**
 * A quota only holds if what a key spends has a price: when a key with a
 * quota may use a model priced nowhere (not by the operator, not by the
 * built-in catalogue), its requests cost nothing against that quota. The admin
 * API answers such a key's creation or change with `warnings`, and the config
 * file's keys are checked once the instance serves; each model is named in
 * the log too.
 */
import { upstreamModelFor, type Channel } from '../core/channel.js';
import { matchesModelPattern } from '../core/model-pattern.js';
import type { AppContext } from '../http/context.js';
import { unpricedMessage } from '../billing/unpriced.js';

interface KeyModels {
  quota?: number | null;
  models?: readonly string[] | null;
}

/**
 * The models the key may use that have no price: its exact names, and for its
 * patterns (`*`, `prefix*`, or no list at all) the exact names the channels
 * serve (their `models` and model mappings) that match one. A channel's own
 * patterns name no model, so they are not checked.
 */
export function unpricedModelsOf(ctx: AppContext, models: readonly string[] | null | undefined): string[] {
  const entries = models ?? ['*'];
  const unpriced = new Set<string>();
  const channels = ctx.channels.all();
  for (const entry of entries) {
    if (entry.endsWith('*')) {
      for (const channel of channels) {
        for (const name of servedNames(channel)) if (matchesModelPattern(entry, name) && !priced(ctx, name, [channel])) unpriced.add(name);
      }
    } else if (!priced(ctx, entry, ctx.channels.serving(entry))) {
      unpriced.add(entry);
    }
  }
  return [...unpriced].sort();
}

/** Warnings for a key with a quota (none without one), each model also logged once. */
export function keyPriceWarnings(ctx: AppContext, key: KeyModels, keyName: string): string[] {
  if (key.quota === null || key.quota === undefined) return [];
  return unpricedModelsOf(ctx, key.models).map((model) => {
    const message = unpricedMessage(model, ctx.prices);
    ctx.logger.warn({ key: keyName, model }, `key "${keyName}" has a quota, but ${message}`);
    return message;
  });
}

/** The config file's keys with a quota, checked once the instance serves: one warning per model. */
export function warnUnpricedKeys(ctx: AppContext, keys: ReadonlyArray<KeyModels & { name: string }>): void {
  const models = new Map<string, string[]>();
  for (const key of keys) {
    if (key.quota === null || key.quota === undefined) continue;
    for (const model of unpricedModelsOf(ctx, key.models)) models.set(model, [...(models.get(model) ?? []), key.name]);
  }
  for (const [model, names] of models)
    ctx.logger.warn({ keys: names, model }, `config file keys with a quota (${names.join(', ')}) may use a model without a price: ${unpricedMessage(model, ctx.prices)}`);
}

function servedNames(channel: Channel): string[] {
  return [...channel.models.filter((model) => !model.includes('*')), ...Object.keys(channel.modelMapping)];
}

/** Priced for every channel that serves it (the upstream's name may carry the price), or by its own name when none does. */
function priced(ctx: AppContext, model: string, serving: readonly Channel[]): boolean {
  if (serving.length === 0) return ctx.prices.quote(model) !== undefined;
  return serving.every((channel) => ctx.prices.quote(model, upstreamModelFor(channel, model)) !== undefined);
}
