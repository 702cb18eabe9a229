/**
 * What the signed-in caller may use, from `GET /admin/me`, and which
 * permission each view needs to be shown and to offer its create, edit and
 * delete buttons (marked `data-write` in the views). One table: a view not
 * listed needs nothing beyond being signed in. The gateway checks every call
 * itself; this only spares people buttons that would answer 403.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { get } from './api.js';
import type { Me } from './types.js';

export type Permission = Me['permissions'][number];

export const VIEW_ACCESS: Record<string, { read: Permission; write?: Permission }> = {
  overview: { read: 'usage.read' },
  keys: { read: 'keys.read', write: 'keys.write' },
  teams: { read: 'teams.read', write: 'teams.write' },
  users: { read: 'users.read', write: 'users.write' },
  budgets: { read: 'budgets.read', write: 'budgets.write' },
  channels: { read: 'channels.read', write: 'channels.write' },
  logs: { read: 'logs.read' },
  tasks: { read: 'tasks.read' },
  prices: { read: 'prices.read', write: 'prices.write' },
  settings: { read: 'settings.read' },
  audit: { read: 'audit.read' },
  playground: { read: 'channels.read' },
  tokens: { read: 'self' },
};

export const loadMe = () => get<Me>('me');

export const mayRead = (me: Me, view: string) => !VIEW_ACCESS[view] || me.permissions.includes(VIEW_ACCESS[view].read);

export const mayWrite = (me: Me, view: string) => {
  const write = VIEW_ACCESS[view]?.write;
  return write === undefined || me.permissions.includes(write);
};

/** The signed-in caller, for views that read other records only where they may (names beside ids). */
export const MeContext = createContext<Me | null>(null);

/** Whether the caller holds `permission` (somewhere: a team admin within their teams). */
export function useCan(): (permission: Permission) => boolean {
  const me = useContext(MeContext);
  return (permission) => me?.permissions.includes(permission) ?? false;
}
