/**
 * The rules about people's roles that a permission alone cannot say: setting
 * anyone's gateway role needs `access.write`, and only an owner (or the admin
 * key, an owner) may make an owner or change, disable or delete one, so an
 * admin cannot raise themselves or remove the owners above them.
 */
import { GatewayError } from '../core/errors.js';
import type { UserRecord } from '../storage/team-types.js';
import { reachOf, type Principal } from './access.js';
import { describeRole } from './guard.js';

/** `input`: the user body as sent (a role given is checked); `target`: the user changed, when one exists already. */
export function checkRoleRules(principal: Principal, target: UserRecord | null, input: unknown): void {
  const role = input !== null && typeof input === 'object' ? (input as { role?: unknown }).role : undefined;
  if (role !== undefined && !reachOf(principal, 'access.write')?.all) {
    throw new GatewayError('permission', `role: setting a role needs the access.write permission; your role is ${describeRole(principal)}`, { param: 'role' });
  }
  if (principal.role === 'owner') return;
  if (role === 'owner') throw new GatewayError('permission', 'role: only an owner may give the owner role', { param: 'role' });
  if (target?.role === 'owner') throw new GatewayError('permission', 'only an owner may change, disable or delete a user whose role is owner');
}
