/** Budgets: each with its scope by name, limits, period, what the current period spent and has left, and its reset; create, change, delete. */
import { useState } from 'preact/hooks';
import { get } from '../api.js';
import { ConfigMark, useConfigOwned } from '../config-owned.js';
import { Dialog, ErrorNote } from '../components.js';
import { formatCount, formatMoney, formatTime } from '../format.js';
import { useLoad, useRowAction } from '../hooks.js';
import type { BudgetView, KeyView, TeamView, UserView } from '../types.js';
import { BudgetForm, type Scopes } from './budget-form.js';

/** The keys, users and teams by id, for the scope column and the form; a list that cannot be read leaves ids shown. */
function useScopes(): Scopes {
  const keys = useLoad(() => get<{ data: KeyView[] }>('keys').catch(() => ({ data: [] })), []);
  const users = useLoad(() => get<{ data: UserView[] }>('users').catch(() => ({ data: [] })), []);
  const teams = useLoad(() => get<{ data: TeamView[] }>('teams').catch(() => ({ data: [] })), []);
  return {
    key: keys.data?.data.map((key) => ({ id: key.id, label: key.name })) ?? [],
    user: users.data?.data.map((user) => ({ id: user.id, label: user.email })) ?? [],
    team: teams.data?.data.map((team) => ({ id: team.id, label: team.name })) ?? [],
  };
}

/** Both limits of a budget on one line: `$50.00 · 1.0M tokens`, a side not set left out. */
function amounts(usd: number | null, tokens: number | null): string {
  const parts = [usd === null ? '' : formatMoney(usd), tokens === null ? '' : `${formatCount(tokens)} tokens`].filter(Boolean);
  return parts.join(' · ') || '—';
}

function resets(budget: BudgetView): string {
  return budget.resetsAt ? formatTime(Date.parse(budget.resetsAt)) : 'never';
}

export function Budgets() {
  const budgets = useLoad(() => get<{ data: BudgetView[] }>('budgets'), []);
  const scopes = useScopes();
  const owned = useConfigOwned('budgets');
  // One dialog for both: a new budget or the one being edited.
  const [editing, setEditing] = useState<BudgetView | 'new'>();

  const scopeName = (budget: BudgetView) => scopes[budget.scopeKind].find((scope) => scope.id === budget.scopeId)?.label ?? budget.scopeId;
  const { act, error } = useRowAction(budgets.reload);
  const remove = (budget: BudgetView) => act('DELETE', `budgets/${encodeURIComponent(budget.id)}`);
  return (
    <section>
      <header class="view-head">
        <h1>Budgets</h1>
        <button data-write type="button" onClick={() => setEditing('new')}>
          New budget
        </button>
      </header>
      <p class="note">Every request of a key is held against its key’s, user’s and team’s budgets; one that would start with a budget spent is refused until the period resets.</p>
      <ErrorNote error={budgets.error ?? error} />
      <table class="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Scope</th>
            <th class="num">Limit</th>
            <th>Period</th>
            <th class="num">Spent</th>
            <th class="num">Remaining</th>
            <th>Resets</th>
            <th>Alert URL</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {budgets.data?.data.map((budget) => (
            <tr key={budget.id} data-budget={budget.name ?? budget.id}>
              <td>
                {budget.name ?? <span class="muted">unnamed</span>} <ConfigMark fields={budget.name === null ? undefined : owned[budget.name]} />
              </td>
              <td>
                <span class="muted">{budget.scopeKind}</span> {scopeName(budget)}
              </td>
              <td class="num">{amounts(budget.amountUsd, budget.tokens)}</td>
              <td>
                {budget.period} <span class="muted">{budget.timeZone}</span>
              </td>
              <td class="num">{amounts(budget.amountUsd === null ? null : budget.spent.usd, budget.tokens === null ? null : budget.spent.tokens)}</td>
              <td class="num" data-remaining>
                {amounts(budget.remaining.usd, budget.remaining.tokens)}
              </td>
              <td>{resets(budget)}</td>
              <td class="muted">{budget.alertUrl ?? ''}</td>
              <td class="row-actions">
                <button data-write type="button" class="secondary" onClick={() => setEditing(budget)}>
                  Edit
                </button>
                <button data-write type="button" class="danger" onClick={() => remove(budget)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {budgets.data?.data.length === 0 ? <p class="note">No budgets yet.</p> : null}
      {editing ? (
        <Dialog title={editing === 'new' ? 'New budget' : `Edit ${editing.name ?? 'budget'}`} onClose={() => setEditing(undefined)} wide>
          <BudgetForm
            existing={editing === 'new' ? undefined : editing}
            scopes={scopes}
            onDone={() => {
              setEditing(undefined);
              budgets.reload();
            }}
          />
        </Dialog>
      ) : null}
    </section>
  );
}
