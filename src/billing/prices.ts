/**
 * The prices in effect, by model name or pattern, and where each came from:
 * set through the admin API, applied from the config file (both kept in the
 * store), or, for a model the operator priced nowhere, the built-in
 * catalogue. Lookup: the operator's exact name, then the longest matching
 * `prefix*` pattern, then `*`; else the catalogue by the client's model name,
 * then by the upstream's. A model priced nowhere costs nothing, and says so
 * (`quote` returns undefined).
 */
import { ModelPatternTable } from '../core/model-pattern.js';
import type { Usage } from '../core/chat.js';
import type { ModelPrice } from '../config/price-schema.js';
import { costOf } from './cost.js';

export type { ModelPrice } from '../config/price-schema.js';

export type PriceSource = 'admin' | 'config' | 'catalogue';

export interface PriceEntry {
  /** A model name or `prefix*` pattern. */
  model: string;
  price: ModelPrice;
  source: Exclude<PriceSource, 'catalogue'>;
  updatedAt?: number;
}

/** What the built-in catalogue offers: a price per well-known model name, and which data it is. */
export interface PriceCatalogue {
  priceOf(model: string): ModelPrice | undefined;
  /** When the model's price next changes (a dated price starting, a time-of-day rate), if ever: quotes are remembered until then. */
  priceChangesAt?(model: string, now: number): number | undefined;
  /** Every model the catalogue prices, for the console to show and override (once `load` has finished, where there is one). */
  list(): CatalogueEntry[];
  /** The catalogue's own id of the model a name matched (`claude-sonnet-4-5` for a dated id). */
  idOf?(model: string): string | undefined;
  /** Reads the whole catalogue, where that takes a while; `priceOf` answers meanwhile. */
  load?(): Promise<void>;
  /** The package the prices come from, its version, and the date of its data. */
  readonly about: { package: string; version: string; date: string };
}

export interface CatalogueEntry {
  /** The catalogue's model id (names starting with it, or matching its rule, get its price). */
  model: string;
  provider: string;
  name?: string;
  price: ModelPrice;
}

export interface PriceQuote {
  price: ModelPrice;
  source: PriceSource;
  /** The operator's pattern or name that matched, or the catalogue's id of the model. */
  matched: string;
}

/** Quotes kept per model name between refreshes; names come from clients, so the map is bounded. */
const MAX_REMEMBERED = 4096;

export class PriceTable {
  private operator: ModelPatternTable<PriceEntry>;
  private list: PriceEntry[];
  private readonly remembered = new Map<string, PriceQuote | null>();
  /** The first instant a remembered catalogue quote stops being the price in effect. */
  private rememberedUntil = Infinity;

  constructor(
    entries: PriceEntry[] | Record<string, ModelPrice> = {},
    private catalogue?: PriceCatalogue,
  ) {
    this.list = Array.isArray(entries) ? entries : Object.entries(entries).map(([model, price]) => ({ model, price, source: 'config' as const }));
    this.operator = tableOf(this.list);
  }

  /** Every operator price (admin and config), as stored. */
  entries(): PriceEntry[] {
    return this.list;
  }

  /** Takes a new set of operator prices (a refresh from the store). */
  replace(entries: PriceEntry[]): void {
    this.list = entries;
    this.operator = tableOf(entries);
    this.forget();
  }

  /** Sets the catalogue used for models the operator priced nowhere. */
  useCatalogue(catalogue: PriceCatalogue | undefined): void {
    this.catalogue = catalogue;
    this.forget();
  }

  catalogueAbout(): PriceCatalogue['about'] | undefined {
    return this.catalogue?.about;
  }

  /** Every model the catalogue prices; undefined when no catalogue is set. */
  async catalogueModels(): Promise<CatalogueEntry[] | undefined> {
    const catalogue = this.catalogue;
    if (!catalogue) return undefined;
    // Asked before the catalogue was read whole (a start from the sources): the list waits for it.
    await catalogue.load?.();
    return catalogue.list();
  }

  /** The price a request for `model` (served as `upstreamModel`) is charged at, and where it came from. */
  quote(model: string, upstreamModel?: string): PriceQuote | undefined {
    const key = upstreamModel === undefined || upstreamModel === model ? model : `${model}\u0000${upstreamModel}`;
    if (this.rememberedUntil !== Infinity && Date.now() >= this.rememberedUntil) this.forget();
    const known = this.remembered.get(key);
    if (known !== undefined) return known ?? undefined;
    const quote = this.lookup(model, upstreamModel) ?? null;
    if (this.remembered.size >= MAX_REMEMBERED) this.forget();
    this.remembered.set(key, quote);
    if (quote?.source === 'catalogue') {
      const changes = this.catalogue?.priceChangesAt?.(quote.matched, Date.now());
      if (changes !== undefined) this.rememberedUntil = Math.min(this.rememberedUntil, changes);
    }
    return quote ?? undefined;
  }

  private forget(): void {
    this.remembered.clear();
    this.rememberedUntil = Infinity;
  }

  priceOf(model: string, upstreamModel?: string): ModelPrice | undefined {
    return this.quote(model, upstreamModel)?.price;
  }

  /** Cost in USD; 0 for a model priced nowhere. */
  cost(model: string, usage: Usage, upstreamModel?: string): number {
    const quote = this.quote(model, upstreamModel);
    return quote ? costOf(quote.price, usage) : 0;
  }

  private lookup(model: string, upstreamModel: string | undefined): PriceQuote | undefined {
    const own = this.operator.get(model);
    if (own) return { price: own.price, source: own.source, matched: own.model };
    if (!this.catalogue) return undefined;
    for (const name of upstreamModel && upstreamModel !== model ? [model, upstreamModel] : [model]) {
      const price = catalogueSays(() => this.catalogue!.priceOf(name));
      if (price) return { price, source: 'catalogue', matched: this.catalogue.idOf?.(name) ?? name };
    }
    return undefined;
  }
}

/**
 * A catalogue that fails (data it cannot read) prices nothing rather than
 * failing the settlement asking it: the request is then logged as unpriced,
 * which warns, instead of being lost.
 */
function catalogueSays<T>(ask: () => T): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

function tableOf(entries: PriceEntry[]): ModelPatternTable<PriceEntry> {
  return new ModelPatternTable(Object.fromEntries(entries.map((entry) => [entry.model, entry])));
}
