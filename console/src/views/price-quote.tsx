/** "What would this model cost?": the price a request would be charged at, and where it comes from (`GET /admin/prices/quote`). */
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { ErrorNote, Field, fieldError, valueOf } from '../components.js';
import { useSubmit } from '../hooks.js';
import type { PriceQuote } from '../types.js';
import { usd } from './price-cells.js';

const SOURCES: Record<string, string> = {
  admin: 'a price set here (admin API, CLI or console)',
  config: 'a price from the config file',
  catalogue: 'the built-in catalogue',
};

function Answer({ answer }: { answer: PriceQuote }) {
  const quote = answer.quote;
  if (!quote)
    return (
      <p class="note quote-answer">
        Priced nowhere: a request for <code>{answer.model}</code> costs nothing.
      </p>
    );
  const amounts = Object.entries(quote.price)
    .filter(([field]) => field !== 'tiers')
    .map(([field, amount]) => `${field} ${usd(amount as number | Record<string, number>)}`);
  const tiers = quote.price.tiers?.length ? `; ${quote.price.tiers.length} long-context tier(s)` : '';
  return (
    <p class="quote-answer">
      <code>{answer.model}</code> is charged at {amounts.join(', ') || 'nothing'}
      {tiers}: {SOURCES[quote.source] ?? quote.source}, matched by <code>{quote.matched}</code>.
    </p>
  );
}

export function PriceQuoteBox() {
  const [model, setModel] = useState('');
  const [upstreamModel, setUpstreamModel] = useState('');
  const [answer, setAnswer] = useState<PriceQuote>();
  const { submit, busy, error } = useSubmit(async () => {
    setAnswer(await get<PriceQuote>(`prices/quote${query({ model: model.trim(), upstreamModel: upstreamModel.trim() })}`));
  });
  const fieldShown = fieldError(error, 'model') ?? fieldError(error, 'upstreamModel');
  return (
    <div class="price-quote">
      <form class="filters" onSubmit={submit}>
        <Field label="Price of a model" error={fieldError(error, 'model')}>
          <input name="quoteModel" required placeholder="claude-sonnet-4-5" value={model} onInput={(e) => setModel(valueOf(e))} />
        </Field>
        <Field label="Upstream model (optional)" hint="the name a channel maps it to" error={fieldError(error, 'upstreamModel')}>
          <input name="quoteUpstreamModel" value={upstreamModel} onInput={(e) => setUpstreamModel(valueOf(e))} />
        </Field>
        <button type="submit" class="secondary" disabled={busy}>
          Look up
        </button>
      </form>
      {answer && !error ? <Answer answer={answer} /> : null}
      {fieldShown ? null : <ErrorNote error={error} />}
    </div>
  );
}
