/**
 * The built-in price catalogue: prices of well-known models from
 * @pydantic/genai-prices (MIT; see docs/decisions.md), for models the
 * operator priced nowhere. A name is matched the way the package matches it:
 * the provider whose own rule takes the name (the model's vendor: `claude` is
 * Anthropic's, `gpt-` OpenAI's, `gemini` Google's), then that provider's
 * models by their `match` rules, the dated id (`-20250929`) tried again with
 * a dashed date; a name no vendor takes is looked for among every provider's
 * models, vendors first, then resellers, in the package's order.
 *
 * The package is about 0.5 MB of code with its data (60 to 150 ms to
 * compile and run), so the gateway's own thread avoids running it: the bundle
 * reads the providers from a JSON snapshot the build wrote beside it
 * (catalogue-snapshot.ts, about 10 ms), and run from the sources a worker
 * thread reads them (catalogue-thread.ts) while a price asked meanwhile
 * requires the package there and then (through `createRequire`, so a bundle
 * without the snapshot leaves it to node_modules) and looks among the
 * vendor's models only, until the whole list is read.
 */
import { createRequire } from 'node:module';
import type { ModelInfo, Provider } from '@pydantic/genai-prices';
import { GatewayError } from '../core/errors.js';
import type { ModelPrice } from '../config/price-schema.js';
import { toModelPrice } from './catalogue-price.js';
import { matchesRule, nextPriceChange, priceInEffect, withDashedDate } from './catalogue-rules.js';
import { readSnapshot } from './catalogue-snapshot.js';
import { readProvidersInThread } from './catalogue-thread.js';
import type { CatalogueEntry, PriceCatalogue } from './prices.js';

/**
 * The release the prices come from and the day it was published. A bump of
 * the dependency must update both (test/billing/catalogue-release.test.ts fails
 * until it does); the date: `npm view @pydantic/genai-prices time --json`.
 */
export const CATALOGUE_RELEASE = { package: '@pydantic/genai-prices', version: '0.1.8', date: '2026-09-23' } as const;

type GenaiPrices = typeof import('@pydantic/genai-prices');

const requireFromHere = createRequire(import.meta.url);

/** Names looked up between two clears; names come from clients, so the map is bounded. */
const MAX_REMEMBERED = 4096;

interface Found {
  model: ModelInfo;
  provider: Provider;
}

export class GenaiPricesCatalogue implements PriceCatalogue {
  readonly about = { ...CATALOGUE_RELEASE };
  /** The package itself, required only when a price was asked before `load` read the providers. */
  private library?: GenaiPrices;
  /** Every provider, once `load` has read them; until then only the vendor's models are searched. */
  private providers?: readonly Provider[];
  private loading?: Promise<void>;
  private snapshotTried = false;
  private readonly found = new Map<string, Found | null>();
  private readonly converted = new WeakMap<object, ModelPrice | null>();

  /** Reads the package's provider list (in a thread of its own unless the package is already loaded here). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      if (this.fromSnapshot()) return;
      const providers = this.library ? ((await this.library.waitForUpdate()) ?? []) : await readProvidersInThread(requireFromHere.resolve(CATALOGUE_RELEASE.package));
      this.providers = providers;
      // Names looked up before the list was read are looked up again over every provider.
      this.found.clear();
    })();
    return this.loading;
  }

  /** Takes the providers from the build's snapshot, once, when there is one. */
  private fromSnapshot(): boolean {
    if (this.providers) return true;
    if (this.snapshotTried) return false;
    this.snapshotTried = true;
    this.providers = readSnapshot(import.meta.url, CATALOGUE_RELEASE.version);
    if (this.providers) this.found.clear();
    return this.providers !== undefined;
  }

  get loaded(): boolean {
    return this.providers !== undefined;
  }

  priceOf(model: string, at = new Date()): ModelPrice | undefined {
    const found = this.find(model);
    return found && this.convert(priceInEffect(found.model, at));
  }

  idOf(model: string): string | undefined {
    return this.find(model)?.model.id;
  }

  priceChangesAt(model: string, now: number): number | undefined {
    const found = this.find(model);
    return found && nextPriceChange(found.model, new Date(now));
  }

  /** Every model the catalogue prices in gateway terms, with the price in effect now. */
  list(): CatalogueEntry[] {
    this.fromSnapshot();
    const providers = this.providers;
    if (!providers) throw new GatewayError('unavailable', 'the price catalogue is still loading; ask again in a moment');
    const now = new Date();
    const entries: CatalogueEntry[] = [];
    for (const provider of providers) {
      for (const model of provider.models) {
        const price = this.convert(priceInEffect(model, now));
        if (price) entries.push({ model: model.id, provider: provider.id, ...(model.name ? { name: model.name } : {}), price });
      }
    }
    return entries;
  }

  /** The catalogue's model for a client's or upstream's model name, or undefined. */
  find(model: string): Found | undefined {
    const name = model.toLowerCase().trim();
    const known = this.found.get(name);
    if (known !== undefined) return known ?? undefined;
    const found = this.search(name) ?? null;
    if (this.found.size >= MAX_REMEMBERED) this.found.clear();
    this.found.set(name, found);
    return found ?? undefined;
  }

  private search(name: string): Found | undefined {
    this.fromSnapshot();
    const dated = withDashedDate(name);
    const names = dated === name ? [name] : [name, dated];
    // The vendor, as the package chooses it (the first provider whose own rule takes the name), with the providers it defers to.
    const vendor = this.providers ? this.providers.find((provider) => provider.model_match && matchesRule(provider.model_match, name)) : this.package().findProvider({ modelId: name });
    if (vendor) {
      for (const candidate of names) {
        const found = modelOf(vendor, candidate) ?? this.fallbackOf(vendor, candidate);
        if (found) return found;
      }
    }
    if (!this.providers) return undefined;
    const ordered = [...this.providers.filter((provider) => provider.model_match), ...this.providers.filter((provider) => !provider.model_match)];
    for (const candidate of names) {
      for (const provider of ordered) {
        if (provider === vendor) continue;
        const found = modelOf(provider, candidate);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** A vendor's models sold under another provider's ids (Vertex's Claude under Google, say), as the package looks there. */
  private fallbackOf(vendor: Provider, name: string): Found | undefined {
    for (const id of vendor.fallback_model_providers ?? []) {
      const provider = this.providers ? this.providers.find((entry) => entry.id === id) : this.package().findProvider({ providerId: id });
      const found = provider && modelOf(provider, name);
      if (found) return found;
    }
    return undefined;
  }

  private convert(price: Parameters<typeof toModelPrice>[0]): ModelPrice | undefined {
    let converted = this.converted.get(price);
    if (converted === undefined) this.converted.set(price, (converted = toModelPrice(price) ?? null));
    return converted ?? undefined;
  }

  private package(): GenaiPrices {
    this.library ??= requireFromHere(CATALOGUE_RELEASE.package) as GenaiPrices;
    return this.library;
  }
}

function modelOf(provider: Provider, name: string): Found | undefined {
  const model = provider.models.find((entry) => matchesRule(entry.match, name));
  return model && { model, provider };
}
