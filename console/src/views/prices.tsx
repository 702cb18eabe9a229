/** The price table the gateway charges by (`GET /admin/prices`), read-only. */
import { get } from '../api.js';
import { Badge, ErrorNote } from '../components.js';
import { useLoad } from '../hooks.js';

interface PriceRow {
  model: string;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  perCall: number | null;
  perSecond: number | null;
  source?: string;
}

const usd = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `$${value}`);

export function Prices() {
  const prices = useLoad(() => get<{ data: PriceRow[] }>('prices'), []);
  const rows = prices.data?.data ?? [];
  const sourced = rows.some((row) => row.source);
  return (
    <section>
      <header class="view-head">
        <h1>Prices</h1>
      </header>
      <p class="muted">USD per million tokens, per call, or per second of output.</p>
      <ErrorNote error={prices.error} />
      {prices.data ? (
        <table class="grid">
          <thead>
            <tr>
              <th>Model</th>
              <th class="num">Input</th>
              <th class="num">Output</th>
              <th class="num">Cache read</th>
              <th class="num">Cache write</th>
              <th class="num">Per call</th>
              <th class="num">Per second</th>
              {sourced ? <th>Source</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.model}>
                <td>
                  <code>{row.model}</code>
                </td>
                <td class="num">{usd(row.input)}</td>
                <td class="num">{usd(row.output)}</td>
                <td class="num">{usd(row.cacheRead)}</td>
                <td class="num">{usd(row.cacheWrite)}</td>
                <td class="num">{usd(row.perCall)}</td>
                <td class="num">{usd(row.perSecond)}</td>
                {sourced ? <td>{row.source ? <Badge text={row.source} tone={row.source === 'config' ? 'info' : ''} /> : null}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
