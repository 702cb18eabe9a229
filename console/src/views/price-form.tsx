/**
 * Sets one model's price (`PUT /admin/prices/{model}`): the token prices,
 * per call, and per second and long-context tiers as JSON. The server checks
 * it with the config file's schema; its complaint shows at the field it names.
 */
import { useState } from 'preact/hooks';
import { admin, ApiError, pricePath } from '../api.js';
import { ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { useSubmit } from '../hooks.js';
import type { ModelPrice, PriceView } from '../types.js';

const TOKEN_FIELDS = [
  ['input', 'Input', 'per million input tokens'],
  ['output', 'Output', 'per million output tokens'],
  ['cacheRead', 'Cache read', 'default: input'],
  ['cacheWrite', 'Cache write', 'five-minute TTL; default: input'],
  ['cacheWrite1h', 'Cache write 1h', 'one-hour TTL; default: cache write'],
  ['reasoning', 'Reasoning', 'default: output'],
  ['perCall', 'Per call', 'image actions (ig_<action>)'],
] as const;

type NumberField = (typeof TOKEN_FIELDS)[number][0];

const FIELDS = ['model', ...TOKEN_FIELDS.map(([field]) => field), 'perSecond', 'tiers'];

/** What the form starts from: a stored price to edit, or a model and price to override (from the catalogue). */
export interface PriceDraft {
  model: string;
  price: ModelPrice;
  existing?: PriceView;
}

const numberText = (value: number | undefined) => (value === undefined ? '' : String(value));
const jsonText = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

function parseAmount(text: string, param: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new ApiError('must be a number', 400, 'invalid_request', param);
  return value;
}

function parseJson(text: string, param: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('must be JSON', 400, 'invalid_request', param);
  }
}

export function PriceForm({ draft, onDone }: { draft?: PriceDraft; onDone: () => void }) {
  const editing = draft?.existing;
  const [model, setModel] = useState(draft?.model ?? '');
  const [amounts, setAmounts] = useState<Record<NumberField, string>>(() => Object.fromEntries(TOKEN_FIELDS.map(([field]) => [field, numberText(draft?.price[field])])) as Record<NumberField, string>);
  const [perSecond, setPerSecond] = useState(jsonText(draft?.price.perSecond));
  const [tiers, setTiers] = useState(jsonText(draft?.price.tiers));
  const { submit, busy, error } = useSubmit(async () => {
    const price: Record<string, unknown> = {};
    for (const [field] of TOKEN_FIELDS) price[field] = parseAmount(amounts[field], field);
    price.perSecond = parseJson(perSecond, 'perSecond');
    price.tiers = parseJson(tiers, 'tiers');
    const name = model.trim();
    if (!name) throw new ApiError('name the model: a name, * or prefix*', 400, 'invalid_request', 'model');
    await admin('PUT', pricePath(name), price);
    onDone();
  });

  return (
    <form class="form price-form" onSubmit={submit}>
      <Field label="Model" hint="a name, * or prefix* (an exact name wins, then the longest prefix)" error={fieldError(error, 'model')}>
        <input name="model" required readOnly={editing !== undefined} value={model} onInput={(e) => setModel(valueOf(e))} />
      </Field>
      {editing?.configOwned ? (
        <p class="note">The config file declares this model's price. A change made here stays until the file changes its price for this model; then the file's applies again.</p>
      ) : null}
      <p class="muted">USD per million tokens; empty fields fall back as each says, or cost nothing.</p>
      <div class="row">
        {TOKEN_FIELDS.map(([field, label, hint]) => (
          <Field key={field} label={label} hint={hint} error={fieldError(error, field)}>
            <input name={field} type="number" min="0" step="any" value={amounts[field]} onInput={(e) => setAmounts((previous) => ({ ...previous, [field]: valueOf(e) }))} />
          </Field>
        ))}
      </div>
      <Field label="Per second of video (JSON)" hint='one number, or by tier: {"720P": 0.1, "*": 0.1}' error={fieldError(error, 'perSecond')}>
        <input name="perSecond" class="mono" value={perSecond} onInput={(e) => setPerSecond(valueOf(e))} />
      </Field>
      <Field label="Long-context tiers (JSON)" hint='[{"above": 200000, "input": 6, "output": 22.5}]: the prices a tier names apply over that many prompt tokens' error={fieldError(error, 'tiers')}>
        <textarea name="tiers" rows={3} class="mono" value={tiers} onInput={(e) => setTiers(valueOf(e))} />
      </Field>
      <ErrorNote error={formError(error, FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {editing ? 'Save' : 'Set price'}
        </button>
      </div>
    </form>
  );
}
