/**
 * The built-in price catalogue (`GET /admin/prices/catalogue`): which data it
 * is (package, version, date), its models searchable, each with an
 * "Override" that opens the price form filled with the catalogue's price.
 */
import { useMemo, useState } from 'preact/hooks';
import { get } from '../api.js';
import { ErrorNote, isMissing, Unavailable, valueOf } from '../components.js';
import { useLoad } from '../hooks.js';
import type { CatalogueAbout, CatalogueModel } from '../types.js';
import { PriceCells, PriceHeads } from './price-cells.js';

/** Rows shown at once: a catalogue holds hundreds of models; the search narrows them. */
const SHOWN = 100;

export function PriceCatalogue({ onOverride }: { onOverride: (entry: CatalogueModel) => void }) {
  const catalogue = useLoad(() => get<{ about: CatalogueAbout | null; data: CatalogueModel[] }>('prices/catalogue'), []);
  const [search, setSearch] = useState('');
  const matches = useMemo(() => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    return (catalogue.data?.data ?? []).filter((entry) => {
      const text = `${entry.model} ${entry.provider} ${entry.name ?? ''}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
  }, [catalogue.data, search]);

  if (isMissing(catalogue.error)) return <Unavailable what="The price catalogue" />;
  const about = catalogue.data?.about;
  return (
    <section class="price-catalogue">
      <h2>Catalogue</h2>
      <ErrorNote error={catalogue.error} />
      {catalogue.data && !about ? <p class="note">No catalogue: a model priced nowhere above costs nothing.</p> : null}
      {about ? (
        <>
          <p class="muted">
            Models priced nowhere above are charged at the catalogue's price: <code>{about.package}</code> {about.version}, data of {about.date}. Override a model to charge it otherwise.
          </p>
          <div class="filters">
            <input name="catalogueSearch" type="search" placeholder="search models, providers" value={search} onInput={(e) => setSearch(valueOf(e))} />
            <span class="muted">
              {matches.length} of {catalogue.data!.data.length} models{matches.length > SHOWN ? `; the first ${SHOWN} shown` : ''}
            </span>
          </div>
          <table class="grid">
            <thead>
              <tr>
                <th>Model</th>
                <th>Provider</th>
                <PriceHeads />
                <th />
              </tr>
            </thead>
            <tbody>
              {matches.slice(0, SHOWN).map((entry) => (
                <tr key={`${entry.provider}/${entry.model}`}>
                  <td title={entry.name}>
                    <code>{entry.model}</code>
                  </td>
                  <td>{entry.provider}</td>
                  <PriceCells price={entry.price} />
                  <td class="row-actions">
                    <button type="button" class="secondary" onClick={() => onOverride(entry)}>
                      Override
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
