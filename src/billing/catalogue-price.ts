/**
 * One @pydantic/genai-prices price as the gateway's `ModelPrice`. The fields
 * the gateway meters map one to one (USD per million tokens): `input_mtok`,
 * `output_mtok`, `cache_read_mtok`, `cache_write_mtok`,
 * `cache_write_1h_mtok`, `output_reasoning_mtok`. The package prices a
 * tiered field by the request's input tokens, cache reads and writes
 * included, over each tier's `start` (strictly): exactly the prompt that
 * billing/cost.ts measures tiers by, so `{ start, price }` becomes a tier
 * `above: start`. Fields priced apart by the package that the gateway does not
 * count (audio, images, web searches, requests) are left out.
 */
import type { ModelPrice as PackagePrice, TieredPrices } from '@pydantic/genai-prices';
import type { ModelPrice, PriceTier, TokenPrices } from '../config/price-schema.js';

const FIELDS = {
  input_mtok: 'input',
  output_mtok: 'output',
  cache_read_mtok: 'cacheRead',
  cache_write_mtok: 'cacheWrite',
  cache_write_1h_mtok: 'cacheWrite1h',
  output_reasoning_mtok: 'reasoning',
} as const satisfies Record<string, keyof TokenPrices>;

type PackageField = keyof typeof FIELDS;

/** The gateway's price for the package's, or undefined when it prices neither input nor output tokens (a model the gateway cannot meter). */
export function toModelPrice(source: PackagePrice): ModelPrice | undefined {
  const fields = (Object.keys(FIELDS) as PackageField[]).filter((field) => source[field] !== undefined);
  if (source.input_mtok === undefined && source.output_mtok === undefined) return undefined;
  const starts = new Set<number>();
  for (const field of fields) {
    const value = source[field];
    if (isTiered(value)) for (const tier of value.tiers) if (tier.start > 0) starts.add(tier.start);
  }
  const price: ModelPrice = {};
  for (const field of fields) price[FIELDS[field]] = priceAt(source[field]!, 0);
  if (starts.size === 0) return price;
  // Every tier names every field, so each is one step of the whole price (a field without tiers keeps its one price).
  price.tiers = [...starts]
    .sort((a, b) => a - b)
    .map((start) => {
      const tier: PriceTier = { above: start };
      for (const field of fields) tier[FIELDS[field]] = priceAt(source[field]!, start);
      return tier;
    });
  return price;
}

/** The field's price for a prompt just over `start` tokens: its highest tier starting at or below that, else its base. */
function priceAt(value: number | TieredPrices, start: number): number {
  if (!isTiered(value)) return value;
  let price = value.base;
  let from = -1;
  for (const tier of value.tiers) {
    if (tier.start <= start && tier.start > from) {
      price = tier.price;
      from = tier.start;
    }
  }
  return price;
}

function isTiered(value: PackagePrice[string]): value is TieredPrices {
  return typeof value === 'object' && value !== null && Array.isArray((value as TieredPrices).tiers);
}
