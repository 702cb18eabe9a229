/**
 * The running price table's refresh: a stored price that no longer parses is
 * skipped and named once while the rest apply, a refresh that cannot read
 * the store keeps the last good table, and of two overlapping refreshes the
 * later read wins.
 */
import { describe, expect, it } from 'vitest';
import { PriceTable } from '../../src/billing/prices.js';
import { StoredPrices, type PriceProblem } from '../../src/billing/stored-prices.js';
import type { PriceRecord, Store } from '../../src/storage/types.js';

const row = (model: string, priceJson: string, source = 'admin'): PriceRecord => ({ model, priceJson, source, updatedAt: 1 });

/** A store whose price list is whatever the test queues next (a list, an error, or a promise it settles later). */
function storeOf(reads: Array<PriceRecord[] | Error | Promise<PriceRecord[]>>): Store {
  return {
    prices: {
      list: async () => {
        const next = reads.shift();
        if (next instanceof Error) throw next;
        return next ?? [];
      },
    },
  } as unknown as Store;
}

describe('stored prices in the running table', () => {
  it('skips a price that no longer parses, names it once, and applies the rest', async () => {
    const rows = [row('good-*', '{"input": 2}'), row('bad', '{"input": "two"}'), row('odd', '{"input": 1}', 'someone'), row('a*b', '{}')];
    const table = new PriceTable();
    const named: PriceProblem[] = [];
    const stored = new StoredPrices(storeOf([rows, rows]), table, (problem) => named.push(problem));
    await stored.refresh();
    await stored.refresh();
    expect(table.quote('good-model')).toEqual({ price: { input: 2 }, source: 'admin', matched: 'good-*' });
    expect(table.quote('bad')).toBeUndefined();
    expect(stored.problems().map((problem) => problem.model)).toEqual(['bad', 'odd', 'a*b']);
    expect(named.map((problem) => `${problem.model}: ${problem.problem}`)).toEqual([
      'bad: price: input: Invalid input: expected number, received string',
      'odd: source: must be admin or config, not "someone"',
      'a*b: model: may hold `*` only at its end',
    ]);
  });

  it('keeps the last good table when the store cannot be read', async () => {
    const table = new PriceTable();
    const stored = new StoredPrices(storeOf([[row('m', '{"input": 1}')], new Error('connection refused')]), table);
    await stored.refresh();
    await expect(stored.refresh()).rejects.toThrow('connection refused');
    expect(table.priceOf('m')).toEqual({ input: 1 });
  });

  it('applies the later of two overlapping reads, whichever ends first', async () => {
    let finishOld!: (rows: PriceRecord[]) => void;
    const old = new Promise<PriceRecord[]>((resolve) => (finishOld = resolve));
    const table = new PriceTable();
    const stored = new StoredPrices(storeOf([old, [row('m', '{"input": 2}')]]), table);
    const first = stored.refresh();
    await stored.refresh();
    finishOld([row('m', '{"input": 1}')]);
    await first;
    expect(table.priceOf('m')).toEqual({ input: 2 });
  });
});
