/**
 * The audit log: administrative changes newest first (who, what, which
 * target), filtered by actor, action and target kind, paged by the server's
 * cursor; an entry opens its before and after (`#/audit/<id>`).
 */
import { useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { ErrorNote, valueOf } from '../components.js';
import { formatTime } from '../format.js';
import { navigate, useLoad } from '../hooks.js';
import type { AuditPage } from '../types.js';
import { AuditDetailView } from './audit-detail.js';
import { actorText } from './audit-diff.js';

const PAGE = 50;
const ACTORS = ['admin-key', 'cli', 'config-file'];
const TARGETS = ['key', 'channel', 'price', 'admin-key', 'secret-key'];

interface Filters {
  actor: string;
  targetKind: string;
  action: string;
}

function Select({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (value: string) => void }) {
  return (
    <label class="field compact">
      <span>{label}</span>
      <select name={label.toLowerCase()} value={value} onChange={(e) => onChange(valueOf(e))}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Audit({ params }: { params: string[] }) {
  const [filters, setFilters] = useState<Filters>({ actor: '', targetKind: '', action: '' });
  const [action, setAction] = useState('');
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const detail = params[0];
  const page = useLoad(
    () => (detail ? Promise.resolve(undefined) : get<AuditPage>(`audit${query({ actor: filters.actor, targetKind: filters.targetKind, action: filters.action.trim(), limit: PAGE, cursor })}`)),
    [filters, cursor, detail],
  );
  if (detail) return <AuditDetailView id={detail} />;
  const set = (change: Partial<Filters>) => {
    setFilters({ ...filters, ...change });
    setCursors([undefined]);
  };
  const rows = page.data?.data ?? [];
  return (
    <section>
      <header class="view-head">
        <h1>Audit log</h1>
      </header>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          set({ action });
        }}
      >
        <Select label="Actor" value={filters.actor} options={ACTORS} onChange={(actor) => set({ actor })} />
        <Select label="Target" value={filters.targetKind} options={TARGETS} onChange={(targetKind) => set({ targetKind })} />
        <label class="field compact">
          <span>Action</span>
          <input name="action" value={action} placeholder="prefix, e.g. key." onInput={(e) => setAction(valueOf(e))} onBlur={() => action !== filters.action && set({ action })} />
        </label>
        <button type="submit" class="secondary">
          Apply
        </button>
      </form>
      <ErrorNote error={page.error} />
      <table class="grid clickable" aria-busy={page.loading}>
        <thead>
          <tr>
            <th>Time</th>
            <th>Actor</th>
            <th>Action</th>
            <th>Target</th>
            <th>Client</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((entry) => (
            <tr key={entry.id} data-audit-id={entry.id} tabIndex={0} onClick={() => navigate('audit', entry.id)} onKeyDown={(e) => e.key === 'Enter' && navigate('audit', entry.id)}>
              <td>{formatTime(entry.at)}</td>
              <td>{actorText(entry)}</td>
              <td>{entry.action}</td>
              <td>
                {entry.targetKind} {entry.targetName ?? entry.targetId ?? ''}
              </td>
              <td>{entry.clientIp ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.data && rows.length === 0 ? <p class="note">No changes match.</p> : null}
      <div class="pager">
        <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <span class="muted">page {cursors.length}</span>
        <button type="button" class="secondary" disabled={!page.data?.nextCursor} onClick={() => setCursors([...cursors, page.data!.nextCursor!])}>
          Older →
        </button>
      </div>
    </section>
  );
}
