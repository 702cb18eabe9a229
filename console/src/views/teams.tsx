/** Teams: their members, keys and spend; create, rename, delete; members added, given a role, removed. */
import { useState } from 'preact/hooks';
import { admin, get } from '../api.js';
import { Dialog, ErrorNote, Field, fieldError, formError, valueOf } from '../components.js';
import { formatMoney, formatTime } from '../format.js';
import { useLoad, useRowAction, useSubmit } from '../hooks.js';
import type { MemberView, TeamView, UserView } from '../types.js';

function TeamForm({ existing, onDone }: { existing?: TeamView; onDone: () => void }) {
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const { submit, busy, error } = useSubmit(async () => {
    const body = { name: name.trim(), description: description.trim() || null };
    if (existing) await admin('PATCH', `teams/${encodeURIComponent(existing.id)}`, body);
    else await admin('POST', 'teams', body);
    onDone();
  });
  return (
    <form class="form" onSubmit={submit}>
      <Field label="Name" error={fieldError(error, 'name')}>
        <input name="name" required value={name} onInput={(e) => setName(valueOf(e))} />
      </Field>
      <Field label="Description" hint="optional" error={fieldError(error, 'description')}>
        <input name="description" value={description} onInput={(e) => setDescription(valueOf(e))} />
      </Field>
      <ErrorNote error={formError(error, ['name', 'description'])} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save' : 'Create team'}
        </button>
      </div>
    </form>
  );
}

function Members({ team, onChange }: { team: TeamView; onChange: () => void }) {
  const path = `teams/${encodeURIComponent(team.id)}/members`;
  const members = useLoad(() => get<{ data: MemberView[] }>(path), [team.id]);
  const users = useLoad(() => get<{ data: UserView[] }>('users'), []);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState('member');
  const [failure, setFailure] = useState<Error>();
  const changed = () => {
    members.reload();
    onChange();
  };
  const { submit, busy, error } = useSubmit(async () => {
    await admin('PUT', path, { userId, role });
    setUserId('');
    changed();
  });
  const remove = async (member: MemberView) => {
    setFailure(undefined);
    try {
      await admin('DELETE', `${path}/${encodeURIComponent(member.userId)}`);
      changed();
    } catch (refused) {
      setFailure(refused as Error);
    }
  };
  const inTeam = new Set(members.data?.data.map((member) => member.userId));
  return (
    <>
      <ErrorNote error={members.error ?? failure} />
      <table class="grid">
        <thead>
          <tr>
            <th>Email</th>
            <th>Name</th>
            <th>Role</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {members.data?.data.map((member) => (
            <tr key={member.userId} data-member={member.email ?? member.userId}>
              <td>{member.email ?? member.userId}</td>
              <td>{member.name ?? ''}</td>
              <td>{member.role}</td>
              <td class="row-actions">
                <button type="button" class="danger" onClick={() => remove(member)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {members.data?.data.length === 0 ? <p class="note">No members yet.</p> : null}
      <form class="filters" onSubmit={submit}>
        <Field label="User" error={fieldError(error, 'userId')}>
          <select name="userId" required value={userId} onChange={(e) => setUserId(valueOf(e))}>
            <option value="">choose…</option>
            {users.data?.data
              .filter((user) => !inTeam.has(user.id))
              .map((user) => (
                <option key={user.id} value={user.id}>
                  {user.email}
                </option>
              ))}
          </select>
        </Field>
        <Field label="Role" error={fieldError(error, 'role')}>
          <select name="role" value={role} onChange={(e) => setRole(valueOf(e))}>
            <option value="member">member</option>
            <option value="admin">team admin</option>
          </select>
        </Field>
        <button type="submit" disabled={busy || !userId}>
          Add member
        </button>
      </form>
      <ErrorNote error={formError(error, ['userId', 'role'])} />
    </>
  );
}

export function Teams() {
  const teams = useLoad(() => get<{ data: TeamView[] }>('teams'), []);
  // One dialog for both: a new team or the one being edited.
  const [editing, setEditing] = useState<TeamView | 'new'>();
  const [members, setMembers] = useState<TeamView>();
  const { act, error } = useRowAction(teams.reload);
  const remove = (team: TeamView) => act('DELETE', `teams/${encodeURIComponent(team.id)}`);
  return (
    <section>
      <header class="view-head">
        <h1>Teams</h1>
        <button data-write type="button" onClick={() => setEditing('new')}>
          New team
        </button>
      </header>
      <ErrorNote error={teams.error ?? error} />
      <table class="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Description</th>
            <th class="num">Members</th>
            <th class="num">Keys (active)</th>
            <th class="num">Spend</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {teams.data?.data.map((team) => (
            <tr key={team.id} data-team={team.name}>
              <td>{team.name}</td>
              <td class="muted">{team.description ?? ''}</td>
              <td class="num">{team.members}</td>
              <td class="num">
                {team.keys} ({team.activeKeys})
              </td>
              <td class="num">{formatMoney(team.spend)}</td>
              <td>{formatTime(team.createdAt)}</td>
              <td class="row-actions">
                <button type="button" class="secondary" onClick={() => setMembers(team)}>
                  Members
                </button>
                <button data-write type="button" class="secondary" onClick={() => setEditing(team)}>
                  Edit
                </button>
                <button data-write type="button" class="danger" onClick={() => remove(team)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {teams.data?.data.length === 0 ? <p class="note">No teams yet.</p> : null}
      {editing ? (
        <Dialog title={editing === 'new' ? 'New team' : `Edit ${editing.name}`} onClose={() => setEditing(undefined)}>
          <TeamForm
            existing={editing === 'new' ? undefined : editing}
            onDone={() => {
              setEditing(undefined);
              teams.reload();
            }}
          />
        </Dialog>
      ) : null}
      {members ? (
        <Dialog title={`Members of ${members.name}`} onClose={() => setMembers(undefined)} wide>
          <Members team={members} onChange={teams.reload} />
        </Dialog>
      ) : null}
    </section>
  );
}
