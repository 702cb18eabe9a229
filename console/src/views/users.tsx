/** Users: their teams, keys and spend; create, change (disable), delete. */
import { useState } from 'preact/hooks';
import { admin, get } from '../api.js';
import { Badge, Dialog, ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { formatMoney, formatTime } from '../format.js';
import { useLoad, useRowAction, useSubmit } from '../hooks.js';
import type { UserView } from '../types.js';

const FIELDS = ['email', 'name', 'externalId'];

function UserForm({ existing, onDone }: { existing?: UserView; onDone: () => void }) {
  const [email, setEmail] = useState(existing?.email ?? '');
  const [name, setName] = useState(existing?.name ?? '');
  const [externalId, setExternalId] = useState(existing?.externalId ?? '');
  const { submit, busy, error } = useSubmit(async () => {
    const body = { email: email.trim(), name: name.trim() || null, externalId: externalId.trim() || null };
    if (existing) await admin('PATCH', `users/${encodeURIComponent(existing.id)}`, body);
    else await admin('POST', 'users', body);
    onDone();
  });
  return (
    <form class="form" onSubmit={submit}>
      <Field label="Email" error={fieldError(error, 'email')}>
        <input name="email" type="email" required value={email} onInput={(e) => setEmail(valueOf(e))} />
      </Field>
      <Field label="Name" hint="optional" error={fieldError(error, 'name')}>
        <input name="name" value={name} onInput={(e) => setName(valueOf(e))} />
      </Field>
      <Field label="External id" hint="the sign-in provider's subject; optional" error={fieldError(error, 'externalId')}>
        <input name="externalId" value={externalId} onInput={(e) => setExternalId(valueOf(e))} />
      </Field>
      <ErrorNote error={formError(error, FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save' : 'Create user'}
        </button>
      </div>
    </form>
  );
}

export function Users() {
  const users = useLoad(() => get<{ data: UserView[] }>('users'), []);
  // One dialog for both: a new user or the one being edited.
  const [editing, setEditing] = useState<UserView | 'new'>();
  const row = useRowAction(users.reload);
  const error = row.error;
  const act = (method: string, user: UserView, body?: unknown) => row.act(method, `users/${encodeURIComponent(user.id)}`, body);
  return (
    <section>
      <header class="view-head">
        <h1>Users</h1>
        <button data-write type="button" onClick={() => setEditing('new')}>
          New user
        </button>
      </header>
      <ErrorNote error={users.error ?? error} />
      <table class="grid">
        <thead>
          <tr>
            <th>Email</th>
            <th>Name</th>
            <th>Status</th>
            <th>Teams</th>
            <th class="num">Keys (active)</th>
            <th class="num">Spend</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {users.data?.data.map((user) => (
            <tr key={user.id} data-user={user.email}>
              <td>{user.email}</td>
              <td>{user.name ?? ''}</td>
              <td>
                <Badge text={user.status} />
              </td>
              <td>{user.teams.map((team) => `${team.name ?? team.teamId}${team.role === 'admin' ? ' (admin)' : ''}`).join(', ')}</td>
              <td class="num">
                {user.keys} ({user.activeKeys})
              </td>
              <td class="num">{formatMoney(user.spend)}</td>
              <td>{formatTime(user.createdAt)}</td>
              <td class="row-actions">
                <button data-write type="button" class="secondary" onClick={() => setEditing(user)}>
                  Edit
                </button>
                {user.status === 'active' ? (
                  <button data-write type="button" class="secondary" onClick={() => act('PATCH', user, { status: 'disabled' })}>
                    Disable
                  </button>
                ) : (
                  <button data-write type="button" class="secondary" onClick={() => act('PATCH', user, { status: 'active' })}>
                    Enable
                  </button>
                )}
                <button data-write type="button" class="danger" onClick={() => act('DELETE', user)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.data?.data.length === 0 ? <p class="note">No users yet.</p> : null}
      {editing ? (
        <Dialog title={editing === 'new' ? 'New user' : `Edit ${editing.email}`} onClose={() => setEditing(undefined)}>
          <UserForm
            existing={editing === 'new' ? undefined : editing}
            onDone={() => {
              setEditing(undefined);
              users.reload();
            }}
          />
        </Dialog>
      ) : null}
    </section>
  );
}
