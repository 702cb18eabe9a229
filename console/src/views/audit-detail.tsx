/**
 * One audit entry (`#/audit/<id>`): who made the change, from where, and the
 * target's fields before and after, the changed ones marked.
 */
import { get } from '../api.js';
import { Badge, ErrorNote } from '../components.js';
import { formatTime } from '../format.js';
import { useLoad } from '../hooks.js';
import type { AuditEntry } from '../types.js';
import { actorText, fieldChanges } from './audit-diff.js';

export function AuditDetailView({ id }: { id: string }) {
  const entry = useLoad(() => get<AuditEntry>(`audit/${encodeURIComponent(id)}`), [id]);
  const data = entry.data;
  const changes = data ? fieldChanges(data.before, data.after) : [];
  return (
    <section>
      <header class="view-head">
        <h1>{data ? `${data.action} ${data.targetName ?? data.targetId ?? ''}` : 'Change'}</h1>
        <a href="#/audit">← Back to the audit log</a>
      </header>
      <ErrorNote error={entry.error} />
      {data ? (
        <div class="detail" data-testid="audit-detail">
          <dl class="facts">
            <dt>Time</dt>
            <dd>{formatTime(data.at)}</dd>
            <dt>Actor</dt>
            <dd>{actorText(data)}</dd>
            <dt>Request</dt>
            <dd>{data.requestId ? `${data.requestId} from ${data.clientIp ?? 'unknown address'}` : '—'}</dd>
            <dt>Target</dt>
            <dd>
              {data.targetKind} {data.targetName ?? ''} <span class="muted">{data.targetId ?? ''}</span>
            </dd>
          </dl>
          <h2>Before and after</h2>
          {changes.length === 0 ? (
            <p class="note">Nothing stored changed (the action says what was done).</p>
          ) : (
            <table class="grid fixed" data-testid="audit-diff">
              <thead>
                <tr>
                  <th>Field</th>
                  <th class="wide">Before</th>
                  <th class="wide">After</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.field} class={change.changed ? 'changed' : undefined}>
                    <td>
                      {change.field} {change.changed ? <Badge text="changed" tone="warn" /> : null}
                    </td>
                    <td class="wrap">
                      <code>{change.before ?? '—'}</code>
                    </td>
                    <td class="wrap">
                      <code>{change.after ?? '—'}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : null}
    </section>
  );
}
