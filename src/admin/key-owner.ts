/** Who a key may belong to: a team, or a user in one of their teams (checked on create and on every change). */
import { GatewayError } from '../core/errors.js';
import type { KeyRecord, Store } from '../storage/types.js';

/** The owner a key would have: null where it has none. */
export interface KeyOwner {
  teamId: string | null;
  userId: string | null;
}

/** Refuses an owner that does not exist or does not fit: a user's key names a team the user belongs to. */
export async function checkKeyOwner(store: Store, owner: KeyOwner): Promise<void> {
  if (owner.teamId !== null && !(await store.teams.get(owner.teamId))) {
    throw new GatewayError('invalid_request', `teamId: no team with id "${owner.teamId}"`, { param: 'teamId' });
  }
  if (owner.userId === null) return;
  if (!(await store.users.get(owner.userId))) throw new GatewayError('invalid_request', `userId: no user with id "${owner.userId}"`, { param: 'userId' });
  if (owner.teamId === null) throw new GatewayError('invalid_request', 'teamId: a key for a user names one of the user’s teams', { param: 'teamId' });
  if (!(await store.teams.member(owner.teamId, owner.userId))) {
    throw new GatewayError('invalid_request', 'userId: the user is not a member of the key’s team', { param: 'userId' });
  }
}

/** The owner a key will have after a change: each field given wins, the others stay as stored. */
export function ownerAfter(current: KeyRecord | undefined, patch: { teamId?: string | null; userId?: string | null }): KeyOwner {
  return { teamId: patch.teamId !== undefined ? patch.teamId : (current?.teamId ?? null), userId: patch.userId !== undefined ? patch.userId : (current?.userId ?? null) };
}
