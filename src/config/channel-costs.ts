/**
 * A channel's cost table, the `costs` setting: what its provider charges the
 * gateway, per model name or `prefix*` pattern, in the one price schema
 * (`price-schema.ts`). It is valid on a channel of any type and says nothing
 * about what clients pay (that is the price table's). A request's upstream
 * cost is looked up by the model name sent upstream, then by the client's.
 */
import { z } from 'zod';
import { ModelPatternTable } from '../core/model-pattern.js';
import { builtOnce } from '../core/built-once.js';
import { priceSchema, pricePatternSchema, type ModelPrice } from './price-schema.js';

/** The setting's name in a channel's `settings`. */
export const COSTS_SETTING = 'costs';

const costsSchema = builtOnce(() => z.record(pricePatternSchema(), priceSchema()));

/** A parsed cost table: the price the provider charges for a model. */
export class ChannelCosts {
  private readonly table: ModelPatternTable<ModelPrice>;

  constructor(prices: Readonly<Record<string, ModelPrice>>) {
    this.table = new ModelPatternTable(prices);
  }

  /** The provider's price for a request sent upstream as `upstreamModel` for the client's `model`. */
  priceFor(upstreamModel: string | null | undefined, model: string): ModelPrice | undefined {
    return (upstreamModel ? this.table.get(upstreamModel) : undefined) ?? this.table.get(model);
  }
}

/**
 * The channel's cost table, undefined when it has none; throws a message
 * naming the entry and field that is wrong (`gpt-4o.input: …`).
 */
export function readChannelCosts(settings: Record<string, unknown>): ChannelCosts | undefined {
  const value = settings[COSTS_SETTING];
  if (value === undefined) return undefined;
  const parsed = costsSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.map(String).join('.');
    // A bad pattern is reported by the record as an invalid key; its own message says what is wrong.
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    throw new Error(where === '' ? `must be a map of model name or pattern to price (${message})` : `${where}: ${message}`);
  }
  return new ChannelCosts(parsed.data);
}
