/** Traffic over time from `GET /admin/usage/series`: totals tiles and one chart per measure, split by the chosen dimension. */
import { useCallback, useMemo, useState } from 'preact/hooks';
import { useCan } from '../access.js';
import { get, query } from '../api.js';
import { Chart, type Line } from '../chart.js';
import { ErrorNote, Tile, valueOf } from '../components.js';
import { formatCount, formatMoney, formatMs } from '../format.js';
import { useLoad } from '../hooks.js';
import type { ChannelView, KeyView, SeriesPoint, UsageRow, UsageSeries } from '../types.js';
import { ChannelMargins } from './channel-margins.js';

/** Each range with a step that gives a few dozen to a couple of hundred points. */
const RANGES: Record<string, { span: number; step: number }> = {
  '1h': { span: 3_600_000, step: 60_000 },
  '24h': { span: 86_400_000, step: 900_000 },
  '7d': { span: 7 * 86_400_000, step: 3_600_000 },
};
const BY = ['none', 'family', 'model', 'channel', 'key', 'team', 'user'];

type Measure = (point: SeriesPoint) => number | null;

/** Measures that are sums read 0 in a bucket without requests; percentiles have no value there. */
const EMPTY: Omit<SeriesPoint, 't'> = {
  requests: 0,
  errors: 0,
  rateLimited: 0,
  failovers: 0,
  inputTokens: 0,
  outputTokens: 0,
  cost: 0,
  unpricedRequests: 0,
  upstreamCost: 0,
  costedRequests: 0,
  costedSpend: 0,
  p50Ms: null,
  p95Ms: null,
  ttftP50Ms: null,
};

/** Models that had traffic but no price anywhere: their requests cost nothing, so spend reads low. */
function UnpricedWarning({ since, until, round }: { since: number; until: number; round: number }) {
  const usage = useLoad(() => get<{ data: UsageRow[] }>(`usage${query({ since, until })}`), [since, until, round]);
  const byModel = new Map<string, number>();
  for (const row of usage.data?.data ?? []) if (row.unpricedRequests > 0) byModel.set(row.model, (byModel.get(row.model) ?? 0) + row.unpricedRequests);
  if (byModel.size === 0) return null;
  return (
    <div class="warning" data-testid="unpriced-models">
      Models without a price had traffic: their requests cost nothing against spend and quotas. Give them a price (Prices, or the config file's <code>prices</code>).
      <ul>
        {[...byModel]
          .sort((a, b) => b[1] - a[1])
          .map(([model, requests]) => (
            <li key={model}>
              <code>{model}</code>: {formatCount(requests)} unpriced request{requests === 1 ? '' : 's'}
            </li>
          ))}
      </ul>
    </div>
  );
}

/** One line per group over every bucket of the range (the answer may leave out buckets without requests). */
function linesOf(answer: UsageSeries, measure: Measure, name: (group: string, label?: string) => string): { times: number[]; lines: Line[] } {
  const times: number[] = [];
  // Buckets start at multiples of the step from the epoch.
  for (let t = Math.floor(answer.since / answer.step) * answer.step; t < answer.until; t += answer.step) times.push(t);
  const lines = answer.series.map((group) => {
    const byTime = new Map(group.points.map((point) => [point.t, point]));
    return { label: name(group.group, group.label), values: times.map((t) => measure(byTime.get(t) ?? { t, ...EMPTY })) };
  });
  return { times, lines };
}

function Charts({ answer, name }: { answer: UsageSeries; name: (group: string, label?: string) => string }) {
  const charts = useMemo(() => {
    const split = (measure: Measure) => linesOf(answer, measure, name);
    const single = answer.series.length <= 1;
    // Ungrouped, related measures share a chart; grouped, one line per group is already plenty.
    const pair = (title: string, a: [string, Measure], b: [string, Measure]) => {
      const first = linesOf(answer, a[1], () => a[0]);
      const second = linesOf(answer, b[1], () => b[0]);
      return { title, times: first.times, lines: [...first.lines, ...second.lines] };
    };
    return [
      { title: 'Requests', ...split((p) => p.requests) },
      { title: 'Errors', ...split((p) => p.errors) },
      single ? pair('Latency', ['p50', (p) => p.p50Ms], ['p95', (p) => p.p95Ms]) : { title: 'Latency p95', ...split((p) => p.p95Ms) },
      { title: 'Time to first token (p50)', ...split((p) => p.ttftP50Ms) },
      single ? pair('Tokens', ['input', (p) => p.inputTokens], ['output', (p) => p.outputTokens]) : { title: 'Tokens (input + output)', ...split((p) => p.inputTokens + p.outputTokens) },
      { title: 'Spend', ...split((p) => p.cost) },
    ];
  }, [answer, name]);
  const formats: Record<string, (value: number) => string> = { Spend: (v) => formatMoney(v), Latency: (v) => formatMs(v) };
  return (
    <div class="charts">
      {charts.map((chart) => (
        <Chart key={chart.title} title={chart.title} times={chart.times} lines={chart.lines} format={formats[chart.title.split(' ')[0]!] ?? formatCount} />
      ))}
    </div>
  );
}

export function Overview() {
  const [range, setRange] = useState('24h');
  const [by, setBy] = useState('none');
  const [round, setRound] = useState(0);
  const series = useLoad(() => {
    const { span, step } = RANGES[range]!;
    // Aligned to the step, so a refresh shows the same buckets.
    const until = Math.ceil(Date.now() / step) * step;
    return get<UsageSeries>(`usage/series${query({ since: until - span, until, step, by })}`);
  }, [range, by, round]);
  const { span: rangeSpan, step: rangeStep } = RANGES[range]!;
  const rangeUntil = Math.ceil(Date.now() / rangeStep) * rangeStep;
  const shown = series.data;
  // Names for the groups only where the caller may read them (the series' own labels stand in otherwise).
  const can = useCan();
  const keys = useLoad(() => (by === 'key' && can('keys.read') ? get<{ data: KeyView[] }>('keys') : Promise.resolve(undefined)), [by]);
  const channels = useLoad(() => (by === 'channel' && can('channels.read') ? get<{ data: ChannelView[] }>('channels') : Promise.resolve(undefined)), [by]);
  const name = useCallback(
    (group: string, label?: string) => {
      if (by === 'none') return 'all';
      if (label) return label;
      if (by === 'key') return keys.data?.data.find((key) => key.id === group)?.name ?? group;
      if (by === 'channel') return channels.data?.data.find((channel) => channel.id === group)?.name ?? group;
      return group;
    },
    [by, keys.data, channels.data],
  );
  const totals = series.data?.totals;

  return (
    <section>
      <header class="view-head">
        <h1>Overview</h1>
        <div class="filters">
          <label class="field compact">
            <span>Range</span>
            <select name="range" value={range} onChange={(e) => setRange(valueOf(e))}>
              {Object.keys(RANGES).map((entry) => (
                <option key={entry} value={entry}>
                  last {entry}
                </option>
              ))}
            </select>
          </label>
          <label class="field compact">
            <span>By</span>
            <select name="by" value={by} onChange={(e) => setBy(valueOf(e))}>
              {BY.map((entry) => (
                <option key={entry} value={entry}>
                  {entry === 'none' ? 'nothing (totals)' : entry}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="secondary" onClick={() => setRound(round + 1)}>
            Refresh
          </button>
        </div>
      </header>
      <ErrorNote error={series.error} />
      {shown && totals && totals.unpricedRequests > 0 ? <UnpricedWarning since={shown.since} until={shown.until} round={round} /> : null}
      {totals ? (
        <div class="tiles" data-testid="totals">
          <Tile label="Requests" value={formatCount(totals.requests)} />
          <Tile label="Errors" value={formatCount(totals.errors)} />
          <Tile label="Failovers" value={formatCount(totals.failovers)} />
          <Tile label="Rate-limit rejections" value={formatCount(totals.rateLimited)} />
          <Tile label="Latency p50 / p95" value={`${formatMs(totals.p50Ms)} / ${formatMs(totals.p95Ms)}`} />
          <Tile label="First token p50" value={formatMs(totals.ttftP50Ms)} />
          <Tile label="Tokens in / out" value={`${formatCount(totals.inputTokens)} / ${formatCount(totals.outputTokens)}`} />
          <Tile label="Spend" value={formatMoney(totals.cost)} />
          {totals.unpricedRequests > 0 ? <Tile label="Unpriced requests" value={formatCount(totals.unpricedRequests)} /> : null}
        </div>
      ) : null}
      <ChannelMargins since={rangeUntil - rangeSpan} until={rangeUntil} round={round} />
      {series.data ? series.data.series.length > 0 ? <Charts answer={series.data} name={name} /> : <p class="note">No requests in this range.</p> : null}
    </section>
  );
}
