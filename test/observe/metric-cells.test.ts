/**
 * The per-request metric cells, rendered by prom-client's registry and read
 * back by a Prometheus text parser: cumulative buckets, sums and counts per
 * label set, label sets that only differ inside a value kept apart, and
 * values that need escaping rendered escaped.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellCounter, CellHistogram } from '../../src/observe/metric-cells.js';

type Parsed = Array<{ name: string; type: string; metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }> }>;

describe('metric cells', () => {
  it('render counters and cumulative histograms per label set', async () => {
    const registry = new Registry();
    const counter = new CellCounter('t_requests_total', 'Requests.', ['model', 'status'], registry);
    const histogram = new CellHistogram('t_seconds', 'Durations.', ['model'], [0.1, 1], registry);
    counter.inc(['a\u0001b', 'c']);
    counter.inc(['a', 'b\u0001c'], 2);
    counter.inc(['say "hi"\n', '200'], 0.5);
    for (const value of [0.05, 0.1, 0.5, 7]) histogram.observe(['m'], value);

    const text = await registry.metrics();
    const parsed = parsePrometheusTextFormat(text) as Parsed;
    const requests = parsed.find((family) => family.name === 't_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    expect(requests.metrics).toHaveLength(3);
    expect(requests.metrics.find((m) => m.labels?.model === 'a\u0001b')?.value).toBe('1');
    expect(requests.metrics.find((m) => m.labels?.model === 'a')?.value).toBe('2');
    expect(requests.metrics.find((m) => m.labels?.status === '200')?.labels?.model).toBe('say "hi"\n');

    const seconds = parsed.find((family) => family.name === 't_seconds')!;
    expect(seconds.type).toBe('HISTOGRAM');
    expect(seconds.metrics[0]!.buckets).toEqual({ '0.1': '2', '1': '3', '+Inf': '4' });
    // The same lines prom-client's own histogram writes.
    expect(text).toContain('t_seconds_bucket{le="0.1",model="m"} 2\n');
    expect(text).toContain('t_seconds_sum{model="m"} 7.65\nt_seconds_count{model="m"} 4');
  });
});
