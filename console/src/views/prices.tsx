/** The price table the gateway charges by (`GET /admin/prices`), read-only. */
import { get } from '../api.js';
import { ErrorNote } from '../components.js';
import { useLoad } from '../hooks.js';

type Amount = number | Record<string, number> | null | undefined;

interface PriceRow {
  model: string;
  input?: Amount;
  output?: Amount;
  cacheRead?: Amount;
  cacheWrite?: Amount;
  perCall?: Amount;
  perSecond?: Amount;
}

/** A price, or per-variant prices (`720p: $0.1, 1080p: $0.3`). */
function usd(value: Amount): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return `$${value}`;
  return Object.entries(value)
    .map(([variant, price]) => `${variant}: $${price}`)
    .join(', ');
}

export function Prices() {
  const prices = useLoad(() => get<{ data: PriceRow[]; source?: string }>('prices'), []);
  return (
    <section>
      <header class="view-head">
        <h1>Prices</h1>
      </header>
      <p class="muted">
        USD per million tokens, per call, or per second of output; model patterns match as channels' do (exact name, else the longest <code>prefix*</code>).
        {prices.data?.source ? ` Set in the ${prices.data.source}: change them there.` : null}
      </p>
      <ErrorNote error={prices.error} />
      {prices.data && prices.data.data.length > 0 ? (
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
            </tr>
          </thead>
          <tbody>
            {prices.data.data.map((row) => (
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
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {prices.data?.data.length === 0 ? <p class="note">No prices: every request costs nothing.</p> : null}
    </section>
  );
}
