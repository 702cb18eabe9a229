/**
 * Counters and histograms for the per-request metrics, cheaper than
 * prom-client's own on the request path: a label set's cell is found through
 * one Map per label, by value, with no key built (prom-client sorts and joins
 * the label names and values on every call), and a
 * histogram cell keeps per-bucket counts that are made cumulative only when
 * scraped. They register in a prom-client Registry (given here, or later with
 * `registerMetric`), which renders them with the rest (the `get()` shape is
 * prom-client's metric JSON).
 */
import type { Registry } from 'prom-client';

interface Cell {
  labels: Record<string, string>;
  value: number;
}

interface HistogramCell {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

abstract class CellMetric<C> {
  /** One Map level per label but the last, whose Map holds the cells. */
  private readonly root = new Map<string, unknown>();
  protected readonly cells: C[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly string[],
    registry?: Registry,
  ) {
    registry?.registerMetric(this as never);
  }

  /** A new cell for a label set (a method, not a closure per call: this runs on every request). */
  protected abstract newCell(labels: Record<string, string>): C;

  /** The cell of the label set `values` (in `labelNames` order), made on first use. */
  protected cellOf(values: readonly string[]): C {
    let level = this.root;
    const last = values.length - 1;
    for (let index = 0; index < last; index++) {
      let next = level.get(values[index]!) as Map<string, unknown> | undefined;
      if (!next) level.set(values[index]!, (next = new Map()));
      level = next;
    }
    let cell = level.get(values[last]!) as C | undefined;
    if (!cell) {
      cell = this.newCell(this.labelsOf(values));
      level.set(values[last]!, cell);
      this.cells.push(cell);
    }
    return cell;
  }

  private labelsOf(values: readonly string[]): Record<string, string> {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, index) => (labels[name] = values[index]!));
    return labels;
  }

  /** prom-client's aggregation for cluster mode: counts add up. */
  readonly aggregator = 'sum';
}

export class CellCounter extends CellMetric<Cell> {
  readonly type = 'counter';

  protected newCell(labels: Record<string, string>): Cell {
    return { labels, value: 0 };
  }

  /** Adds `amount` to the label set `values` (in `labelNames` order). */
  inc(values: readonly string[], amount = 1): void {
    this.cellOf(values).value += amount;
  }

  get() {
    const values: MetricValue[] = [];
    for (const cell of this.cells) values.push({ labels: cell.labels, value: cell.value });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

export class CellHistogram extends CellMetric<HistogramCell> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly buckets: readonly number[],
    registry?: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected newCell(labels: Record<string, string>): HistogramCell {
    return { labels, counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
  }

  observe(values: readonly string[], value: number): void {
    const cell = this.cellOf(values);
    // Bucket `i` counts values in (buckets[i-1], buckets[i]]; above the last bucket only +Inf (count) holds them.
    let index = 0;
    while (index < this.buckets.length && value > this.buckets[index]!) index++;
    if (index < this.buckets.length) cell.counts[index]! += 1;
    cell.sum += value;
    cell.count += 1;
  }

  get() {
    const values: MetricValue[] = [];
    for (const cell of this.cells) {
      let cumulative = 0;
      // `le` first, as prom-client's own histograms write it.
      this.buckets.forEach((bound, index) => {
        cumulative += cell.counts[index]!;
        values.push({ labels: { le: bound, ...cell.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...cell.labels }, value: cell.count, metricName: `${this.name}_bucket` });
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
