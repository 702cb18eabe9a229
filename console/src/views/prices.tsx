/**
 * Prices: the operator's prices (set here, by the CLI or by the config file,
 * whose are marked and explained), set, edit and delete one, what a model
 * would be charged at, and the built-in catalogue to override from.
 */
import { useState } from 'preact/hooks';
import { admin, get, pricePath } from '../api.js';
import { Badge, Dialog, ErrorNote } from '../components.js';
import { formatTime } from '../format.js';
import { ConfigMark } from '../config-owned.js';
import { useLoad } from '../hooks.js';
import type { PriceList, PriceView } from '../types.js';
import { PriceCatalogue } from './price-catalogue.js';
import { PriceCells, PriceHeads } from './price-cells.js';
import { PriceForm, type PriceDraft } from './price-form.js';
import { PriceQuoteBox } from './price-quote.js';

/** Who set the price in effect: the admin API, CLI or console (`admin`), or the config file (`config`). */
function Source({ row }: { row: PriceView }) {
  if (row.source === 'config') return <Badge text="config file" tone="info" />;
  return (
    <span title={row.configOwned ? "set here over the config file's price: it stays until the file changes its price for this model" : undefined}>
      <Badge text="admin" tone="" />
      {row.configOwned ? <small class="muted"> over the file's</small> : null}
    </span>
  );
}

export function Prices() {
  const prices = useLoad(() => get<PriceList>('prices'), []);
  const [editing, setEditing] = useState<PriceDraft | 'new'>();
  const [deleting, setDeleting] = useState<string>();
  const [error, setError] = useState<Error>();

  const remove = async (model: string) => {
    setError(undefined);
    try {
      await admin('DELETE', pricePath(model));
      setDeleting(undefined);
      prices.reload();
    } catch (failure) {
      setError(failure as Error);
    }
  };

  const rows = prices.data?.data ?? [];
  return (
    <section>
      <header class="view-head">
        <h1>Prices</h1>
        <button data-write type="button" onClick={() => setEditing('new')}>
          New price
        </button>
      </header>
      <p class="muted">
        USD per million tokens, per call, or per second of video, by model name, <code>*</code> or <code>prefix*</code> (an exact name wins, then the longest prefix). Every instance charges a change
        from its next request on. Models marked <em>config</em> are priced by the config file: a change or deletion made here stays until the file changes that model's price; a model the file stops
        pricing loses the file's price (not one set here).
      </p>
      <ErrorNote error={prices.error ?? error} />
      {prices.data?.problems.length ? (
        <div class="price-problems" role="alert">
          {prices.data.problems.map((problem) => (
            <p key={problem.model} class="error">
              Stored price <code>{problem.model}</code> is skipped until fixed: {problem.problem}
            </p>
          ))}
        </div>
      ) : null}
      {rows.length > 0 ? (
        <table class="grid prices">
          <thead>
            <tr>
              <th>Model</th>
              <th>Source</th>
              <PriceHeads />
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.model} data-model={row.model}>
                <td>
                  <code>{row.model}</code> <ConfigMark fields={row.configOwned ? ['price'] : undefined} />
                </td>
                <td>
                  <Source row={row} />
                </td>
                <PriceCells price={row.price} />
                <td>{formatTime(row.updatedAt)}</td>
                <td class="row-actions">
                  <button data-write type="button" class="secondary" onClick={() => setEditing({ model: row.model, price: row.price, existing: row })}>
                    Edit
                  </button>
                  {deleting === row.model ? (
                    <button data-write type="button" class="danger" onClick={() => remove(row.model)}>
                      Confirm delete
                    </button>
                  ) : (
                    <button data-write type="button" class="plain" onClick={() => setDeleting(row.model)}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {prices.data && rows.length === 0 ? <p class="note">No prices set{prices.data.catalogue ? ': models are charged at the catalogue’s prices, below.' : ': every request costs nothing.'}</p> : null}
      <h2>Price of a model</h2>
      <PriceQuoteBox />
      <PriceCatalogue onOverride={(entry) => setEditing({ model: entry.model, price: entry.price })} />
      {editing ? (
        <Dialog wide title={editing === 'new' ? 'New price' : editing.existing ? `Price of ${editing.model}` : `Override ${editing.model}`} onClose={() => setEditing(undefined)}>
          <PriceForm
            draft={editing === 'new' ? undefined : editing}
            onDone={() => {
              setEditing(undefined);
              prices.reload();
            }}
          />
        </Dialog>
      ) : null}
    </section>
  );
}
