/** The signed-in person's own admin tokens: list, create (the secret shown once), revoke. */
import { useState } from 'preact/hooks';
import { admin, get } from '../api.js';
import { Badge, Dialog, ErrorNote, valueOf } from '../components.js';
import { formatTime } from '../format.js';
import { useLoad, useSubmit } from '../hooks.js';
import type { AdminTokenView, CreatedAdminToken, Me } from '../types.js';
import { SecretDialog } from './keys.js';

function NewToken({ onCreated, onClose }: { onCreated: (secret: string) => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const { submit, busy, error } = useSubmit(async () => {
    const created = await admin<CreatedAdminToken>('POST', 'me/tokens', { name: name.trim() || undefined, ...(days ? { expiresInDays: Number(days) } : {}) });
    onCreated(created.token);
  });
  return (
    <Dialog title="New admin token" onClose={onClose}>
      <form onSubmit={submit}>
        <label class="field">
          <span>Name</span>
          <input name="name" value={name} placeholder="laptop, deploy script…" onInput={(e) => setName(valueOf(e))} />
        </label>
        <label class="field">
          <span>Expires after (days, empty: never)</span>
          <input name="expiresInDays" type="number" min={1} value={days} onInput={(e) => setDays(valueOf(e))} />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Create token
        </button>
      </form>
    </Dialog>
  );
}

export function Tokens() {
  const me = useLoad(() => get<Me>('me'), []);
  const [round, setRound] = useState(0);
  const tokens = useLoad(() => (me.data?.user ? get<{ data: AdminTokenView[] }>('me/tokens') : Promise.resolve(undefined)), [me.data, round]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [failure, setFailure] = useState<Error>();
  const revoke = async (token: AdminTokenView) => {
    try {
      await admin('DELETE', `me/tokens/${encodeURIComponent(token.id)}`);
      setRound(round + 1);
    } catch (error) {
      setFailure(error as Error);
    }
  };
  if (me.data && !me.data.user) {
    return (
      <section>
        <h1>Your tokens</h1>
        <p class="muted">You are signed in with the admin key, which is no person: tokens belong to people. Create a person with a role, then a token for them (CLI: tokens create --user EMAIL).</p>
      </section>
    );
  }
  return (
    <section>
      <header class="view-head">
        <h1>Your tokens</h1>
        <button type="button" onClick={() => setCreating(true)}>
          New token
        </button>
      </header>
      <p class="muted">A personal admin token signs you in here and to the admin API (Authorization: Bearer), with your role{me.data?.role ? ` (${me.data.role})` : ''}.</p>
      <ErrorNote error={tokens.error ?? failure} />
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Prefix</th>
            <th>State</th>
            <th>Created</th>
            <th>Expires</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(tokens.data?.data ?? []).map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>
                <Badge text={token.state} />
              </td>
              <td>{formatTime(token.createdAt)}</td>
              <td>{token.expiresAt ? formatTime(token.expiresAt) : 'never'}</td>
              <td>{token.lastUsedAt ? formatTime(token.lastUsedAt) : '—'}</td>
              <td>
                {token.state === 'active' ? (
                  <button type="button" class="danger" onClick={() => revoke(token)}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {creating ? (
        <NewToken
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setSecret(created);
            setRound(round + 1);
          }}
        />
      ) : null}
      {secret ? <SecretDialog secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </section>
  );
}
