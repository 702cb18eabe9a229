/** A budget's form: its scope picked from the keys, users and teams (fixed once created), its limits, period, zone and alert address. */
import { useState } from 'preact/hooks';
import { admin } from '../api.js';
import { ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { parseNumber } from '../format.js';
import { useSubmit } from '../hooks.js';
import type { BudgetView } from '../types.js';

export type ScopeKind = BudgetView['scopeKind'];
export type Period = BudgetView['period'];

/** The keys, users and teams a budget may limit, as `{ id, label }` per kind. */
export type Scopes = Record<ScopeKind, { id: string; label: string }[]>;

const FIELDS = ['scopeKind', 'scopeId', 'name', 'amountUsd', 'tokens', 'period', 'timeZone', 'alertUrl'];
const PERIODS: Period[] = ['daily', 'weekly', 'monthly', 'lifetime'];
// The zones the browser knows, offered as suggestions; the gateway checks the one sent.
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function BudgetForm({ existing, scopes, onDone }: { existing?: BudgetView; scopes: Scopes; onDone: () => void }) {
  const [scopeKind, setScopeKind] = useState<ScopeKind>(existing?.scopeKind ?? 'team');
  const [scopeId, setScopeId] = useState(existing?.scopeId ?? '');
  const [name, setName] = useState(existing?.name ?? '');
  const [amountUsd, setAmountUsd] = useState(text(existing?.amountUsd));
  const [tokens, setTokens] = useState(text(existing?.tokens));
  const [period, setPeriod] = useState<Period>(existing?.period ?? 'monthly');
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? 'UTC');
  const [alertUrl, setAlertUrl] = useState(existing?.alertUrl ?? '');
  const { submit, busy, error } = useSubmit(async () => {
    const fields = {
      name: name.trim() || null,
      amountUsd: parseNumber(amountUsd),
      tokens: parseNumber(tokens),
      period,
      timeZone: timeZone.trim() || 'UTC',
      alertUrl: alertUrl.trim() || null,
    };
    if (existing) await admin('PATCH', `budgets/${encodeURIComponent(existing.id)}`, fields);
    else await admin('POST', 'budgets', { scopeKind, scopeId, ...fields });
    onDone();
  });
  const choices = scopes[scopeKind];
  return (
    <form class="form" onSubmit={submit}>
      <div class="row">
        <Field label="Limits" hint={existing ? 'a budget keeps its scope' : 'every request of it counts'} error={fieldError(error, 'scopeKind')}>
          <select
            name="scopeKind"
            value={scopeKind}
            disabled={!!existing}
            onChange={(e) => {
              setScopeKind(valueOf(e) as ScopeKind);
              setScopeId('');
            }}
          >
            <option value="team">a team</option>
            <option value="user">a user</option>
            <option value="key">a key</option>
          </select>
        </Field>
        <Field label={scopeKind === 'key' ? 'Key' : scopeKind === 'user' ? 'User' : 'Team'} error={fieldError(error, 'scopeId')}>
          <select name="scopeId" required value={scopeId} disabled={!!existing} onChange={(e) => setScopeId(valueOf(e))}>
            <option value="">choose…</option>
            {/* A scope no longer listed (or not readable) still shows by its id. */}
            {existing && !choices.some((choice) => choice.id === existing.scopeId) ? <option value={existing.scopeId}>{existing.scopeId}</option> : null}
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field label="Name" hint="optional; a refusal names the budget by it" error={fieldError(error, 'name')}>
        <input name="name" value={name} onInput={(e) => setName(valueOf(e))} />
      </Field>
      <div class="row">
        <Field label="USD per period" hint="empty: no money limit" error={fieldError(error, 'amountUsd')}>
          <input name="amountUsd" type="number" min="0" step="any" value={amountUsd} onInput={(e) => setAmountUsd(valueOf(e))} />
        </Field>
        <Field label="Tokens per period" hint="input plus output; empty: no token limit" error={fieldError(error, 'tokens')}>
          <input name="tokens" type="number" min="1" step="1" value={tokens} onInput={(e) => setTokens(valueOf(e))} />
        </Field>
      </div>
      <div class="row">
        <Field label="Period" hint="from midnight in the time zone" error={fieldError(error, 'period')}>
          <select name="period" value={period} onChange={(e) => setPeriod(valueOf(e) as Period)}>
            {PERIODS.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Time zone" hint="IANA, e.g. Europe/Paris" error={fieldError(error, 'timeZone')}>
          <input name="timeZone" list="budget-zones" value={timeZone} onInput={(e) => setTimeZone(valueOf(e))} />
          <datalist id="budget-zones">
            {ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </Field>
      </div>
      <Field label="Alert URL" hint="posted at 50, 80 and 100 % of a limit; optional" error={fieldError(error, 'alertUrl')}>
        <input name="alertUrl" type="url" value={alertUrl} onInput={(e) => setAlertUrl(valueOf(e))} />
      </Field>
      <ErrorNote error={formError(error, FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy || !scopeId}>
          {existing ? 'Save' : 'Create budget'}
        </button>
      </div>
    </form>
  );
}
