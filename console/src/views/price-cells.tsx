/** How a price reads in the console's tables: each amount in USD, `—` where unset. */
import type { ModelPrice } from '../types.js';

type Amount = number | Record<string, number> | undefined;

/** A price, or per-tier prices (`720P: $0.1, 1080P: $0.3`). */
export function usd(value: Amount): string {
  if (value === undefined) return '—';
  if (typeof value === 'number') return `$${value}`;
  return Object.entries(value)
    .map(([variant, price]) => `${variant}: $${price}`)
    .join(', ');
}

/** The price's headline amounts, as cells; the rest (cache writes, reasoning, tiers) in a title. */
export function PriceCells({ price }: { price: ModelPrice }) {
  const more = [
    price.cacheWrite1h !== undefined ? `cache write 1h ${usd(price.cacheWrite1h)}` : null,
    price.reasoning !== undefined ? `reasoning ${usd(price.reasoning)}` : null,
    ...(price.tiers ?? []).map(
      (tier) =>
        `over ${tier.above} prompt tokens: ${Object.entries(tier)
          .filter(([field]) => field !== 'above')
          .map(([field, amount]) => `${field} $${amount}`)
          .join(', ')}`,
    ),
  ].filter((line): line is string => line !== null);
  return (
    <>
      <td class="num">{usd(price.input)}</td>
      <td class="num">{usd(price.output)}</td>
      <td class="num">{usd(price.cacheRead)}</td>
      <td class="num">{usd(price.cacheWrite)}</td>
      <td class="num">{usd(price.perCall)}</td>
      <td class="num">{usd(price.perSecond)}</td>
      <td class="muted" title={more.join('\n') || undefined}>
        {more.length > 0 ? more.join('; ') : ''}
      </td>
    </>
  );
}

/** The header cells that go with `PriceCells`. */
export function PriceHeads() {
  return (
    <>
      <th class="num">Input</th>
      <th class="num">Output</th>
      <th class="num">Cache read</th>
      <th class="num">Cache write</th>
      <th class="num">Per call</th>
      <th class="num">Per second</th>
      <th>More</th>
    </>
  );
}
