/**
 * The operator's prices as the running table charges them: read from the
 * store at start, after every admin write on this instance, on the refresh
 * interval (the CLI's writes) and when another instance says prices changed.
 * A stored price that no longer parses (a row edited by hand) is named,
 * logged once per change and listed as a problem, and skipped: the other
 * prices still apply. A refresh that cannot read the store keeps the last
 * table.
 */
import type { z } from 'zod';
import { pricePatternSchema, priceSchema } from '../config/price-schema.js';
import type { PriceRecord, Store } from '../storage/types.js';
import type { PriceEntry, PriceTable } from './prices.js';
import { RefreshTimer } from '../core/refresh-timer.js';

/** A stored price that cannot be used, and why. */
export interface PriceProblem {
  model: string;
  problem: string;
}

const SOURCES: ReadonlySet<string> = new Set<PriceEntry['source']>(['admin', 'config']);

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** One stored row as a price entry, or why it cannot be one. */
export function readStoredPrice(record: PriceRecord): PriceEntry | PriceProblem {
  const model = pricePatternSchema().safeParse(record.model);
  if (!model.success) return { model: record.model, problem: `model: ${issueText(model.error)}` };
  if (!SOURCES.has(record.source)) return { model: record.model, problem: `source: must be admin or config, not "${record.source.slice(0, 40)}"` };
  let json: unknown;
  try {
    json = JSON.parse(record.priceJson);
  } catch {
    return { model: record.model, problem: 'price: not valid JSON' };
  }
  const price = priceSchema().safeParse(json);
  if (!price.success) return { model: record.model, problem: `price: ${issueText(price.error)}` };
  return { model: record.model, price: price.data, source: record.source as PriceEntry['source'], updatedAt: record.updatedAt };
}

export function readStoredPrices(records: PriceRecord[]): { entries: PriceEntry[]; problems: PriceProblem[] } {
  const entries: PriceEntry[] = [];
  const problems: PriceProblem[] = [];
  for (const record of records) {
    const read = readStoredPrice(record);
    if ('problem' in read) problems.push(read);
    else entries.push(read);
  }
  return { entries, problems };
}

export class StoredPrices {
  private problemList: PriceProblem[] = [];
  /** Problems already logged, by model, so each is named once per change rather than on every refresh. */
  private readonly reported = new Map<string, string>();
  private readonly timer = new RefreshTimer();
  /** Refreshes may overlap (the timer, the change feed, an admin write): only the latest read is applied. */
  private started = 0;
  private applied = 0;

  constructor(
    private readonly store: Store,
    private readonly table: PriceTable,
    private readonly onInvalid: (problem: PriceProblem) => void = () => {},
  ) {}

  /** Throws, keeping the table as it was, when the store cannot be read; never for one bad row. */
  async refresh(): Promise<void> {
    const ticket = ++this.started;
    const records = await this.store.prices.list();
    if (ticket < this.applied) return;
    this.applied = ticket;
    const { entries, problems } = readStoredPrices(records);
    this.table.replace(entries);
    this.problemList = problems;
    for (const problem of problems) {
      if (this.reported.get(problem.model) === problem.problem) continue;
      this.reported.set(problem.model, problem.problem);
      this.onInvalid(problem);
    }
    for (const model of this.reported.keys()) if (!problems.some((problem) => problem.model === model)) this.reported.delete(model);
  }

  /** The stored prices skipped at the last refresh, and why. */
  problems(): readonly PriceProblem[] {
    return this.problemList;
  }

  startAutoRefresh(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer.start(intervalMs, () => this.refresh(), onError);
  }

  stop(): void {
    this.timer.stop();
  }
}
