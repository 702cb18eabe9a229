/** A key form's owner: a team, then (optionally) one of that team's members. */
import { get } from '../api.js';
import { Field, fieldError, valueOf } from '../components.js';
import { useLoad } from '../hooks.js';
import type { MemberView, TeamView } from '../types.js';

export interface Owner {
  teamId: string;
  userId: string;
}

export function OwnerFields({ owner, onChange, error }: { owner: Owner; onChange: (owner: Owner) => void; error: Error | undefined }) {
  const teams = useLoad(() => get<{ data: TeamView[] }>('teams'), []);
  const members = useLoad(() => (owner.teamId ? get<{ data: MemberView[] }>(`teams/${encodeURIComponent(owner.teamId)}/members`) : Promise.resolve({ data: [] })), [owner.teamId]);
  return (
    <div class="row">
      <Field label="Team" hint="its usage and spend roll up to the team" error={fieldError(error, 'teamId')}>
        <select name="teamId" value={owner.teamId} onChange={(e) => onChange({ teamId: valueOf(e), userId: '' })}>
          <option value="">no team</option>
          {teams.data?.data.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="User" hint="a member of the team; none: the team's key" error={fieldError(error, 'userId')}>
        <select name="userId" value={owner.userId} disabled={!owner.teamId} onChange={(e) => onChange({ ...owner, userId: valueOf(e) })}>
          <option value="">none</option>
          {members.data?.data.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.email ?? member.userId}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
