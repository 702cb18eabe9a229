/** Client keys: spend against quota, limits; create (the secret shown once), change, disable. */
import { useState } from 'preact/hooks';
import { admin, get } from '../api.js';
import { Badge, Dialog, ErrorNote } from '../components.js';
import { formatList, formatMoney, formatTime } from '../format.js';
import { useLoad } from '../hooks.js';
import { ConfigMark, useConfigOwned } from '../config-owned.js';
import type { KeyView, TeamView } from '../types.js';
import { KeyForm } from './key-form.js';

function SpendBar({ used, quota }: { used: number; quota: number | null }) {
  if (quota === null)
    return (
      <span>
        {formatMoney(used)} <small class="muted">no quota</small>
      </span>
    );
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  return (
    <span class="spend" title={`${formatMoney(used)} of ${formatMoney(quota)}`}>
      <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={share} />
      {formatMoney(used)} / {formatMoney(quota)}
    </span>
  );
}

function Limits({ row }: { row: KeyView }) {
  const parts = [
    row.rpm ? `${row.rpm} rpm` : null,
    row.tpm ? `${row.tpm} tpm` : null,
    row.models ? `models: ${formatList(row.models)}` : null,
    row.allowIps ? `from: ${formatList(row.allowIps)}` : null,
    row.expiresAt ? `expires ${formatTime(row.expiresAt)}` : null,
    row.strictTranslation ? 'strict' : null,
  ].filter(Boolean);
  return <span class="muted">{parts.length > 0 ? parts.join(' · ') : 'none'}</span>;
}

/** The secret, once: the gateway keeps only its hash. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState<boolean | 'failed'>(false);
  const copy = async () => {
    try {
      // Absent outside secure contexts (plain HTTP to another host): then the operator selects the text.
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Dialog title="The new key's secret" onClose={onClose}>
      <p>Copy it now: it is shown this once and cannot be read back.</p>
      <p class="secret">
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click selects the secret for copying; keyboard selection works as on any text */}
        <code data-testid="secret" onClick={(e) => getSelection()?.selectAllChildren(e.currentTarget)}>
          {secret}
        </code>
      </p>
      <div class="actions">
        <button type="button" onClick={copy}>
          {copied === true ? 'Copied' : 'Copy'}
        </button>
        {copied === 'failed' ? <small class="error">The browser refused the clipboard: select the secret and copy it.</small> : null}
        <button type="button" class="secondary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

export function Keys() {
  const keys = useLoad(() => get<{ data: KeyView[] }>('keys'), []);
  const owned = useConfigOwned('keys');
  const teams = useLoad(() => get<{ data: TeamView[] }>('teams').catch(() => ({ data: [] })), []);
  const teamName = (id: string | null) => (id === null ? '—' : (teams.data?.data.find((team) => team.id === id)?.name ?? id));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<KeyView>();
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<Error>();

  const setStatus = async (row: KeyView, status: 'active' | 'disabled') => {
    setError(undefined);
    try {
      if (status === 'disabled') await admin('DELETE', `keys/${encodeURIComponent(row.id)}`);
      else await admin('PATCH', `keys/${encodeURIComponent(row.id)}`, { status });
      keys.reload();
    } catch (failure) {
      setError(failure as Error);
    }
  };

  return (
    <section>
      <header class="view-head">
        <h1>Keys</h1>
        <button data-write type="button" onClick={() => setCreating(true)}>
          New key
        </button>
      </header>
      <ErrorNote error={keys.error ?? error} />
      <table class="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Prefix</th>
            <th>Status</th>
            <th>Team</th>
            <th>Spend</th>
            <th>Limits</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.data?.data.map((row) => (
            <tr key={row.id} data-key-id={row.id}>
              <td>
                {row.name} <ConfigMark fields={owned[row.name]} />
              </td>
              <td>
                <code>{row.keyPrefix}…</code>
              </td>
              <td>
                <Badge text={row.status} />
              </td>
              <td>
                {teamName(row.teamId)}
                {row.userId ? <small class="muted"> (a member’s)</small> : null}
              </td>
              <td>
                <SpendBar used={row.used} quota={row.quota} />
              </td>
              <td>
                <Limits row={row} />
              </td>
              <td>{formatTime(row.createdAt)}</td>
              <td class="row-actions">
                <button data-write type="button" class="secondary" onClick={() => setEditing(row)}>
                  Edit
                </button>
                {row.status === 'active' ? (
                  <button data-write type="button" class="danger" onClick={() => setStatus(row, 'disabled')}>
                    Disable
                  </button>
                ) : (
                  <button data-write type="button" class="secondary" onClick={() => setStatus(row, 'active')}>
                    Enable
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.data?.data.length === 0 ? <p class="note">No keys yet.</p> : null}
      {creating ? (
        <Dialog title="New key" onClose={() => setCreating(false)}>
          <KeyForm
            onDone={(saved) => {
              setCreating(false);
              setSecret(saved.key);
              keys.reload();
            }}
          />
        </Dialog>
      ) : null}
      {editing ? (
        <Dialog title={`Edit ${editing.name}`} onClose={() => setEditing(undefined)}>
          <KeyForm
            existing={editing}
            onDone={() => {
              setEditing(undefined);
              keys.reload();
            }}
          />
        </Dialog>
      ) : null}
      {secret ? <SecretDialog secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </section>
  );
}
