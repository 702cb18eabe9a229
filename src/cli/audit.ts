/**
 * The CLI's side of the audit log: who it records as (`cli`, the OS user
 * running it) and `switchyard audit list`, filtered as GET /admin/audit is.
 */
import { userInfo } from 'node:os';
import { auditListQuery } from '../admin/audit-schemas.js';
import { parseQuery } from '../admin/queries.js';
import type { AuditActor, AuditEntry } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';

function osUser(env: NodeJS.ProcessEnv): string | null {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for the uid (some containers): the shell's word for it, if any.
    return env.USER ?? env.USERNAME ?? null;
  }
}

export function cliActor(env: NodeJS.ProcessEnv): AuditActor {
  const user = osUser(env);
  return { kind: 'cli', id: user, name: user, requestId: null, clientIp: null };
}

/** The flags of `audit list`, as the API's query parameters (checked by the same schema). */
export const AUDIT_FLAGS: Record<string, string> = {
  actor: 'actor',
  action: 'action',
  'target-kind': 'targetKind',
  'target-id': 'targetId',
  since: 'since',
  until: 'until',
  limit: 'limit',
};

export async function listAudit(store: Store, values: Record<string, unknown>): Promise<AuditEntry[]> {
  const given = Object.entries(AUDIT_FLAGS).filter(([flag]) => typeof values[flag] === 'string');
  const query = parseQuery(auditListQuery(), Object.fromEntries(given.map(([flag, param]) => [param, values[flag]])));
  const { limit, cursor: _cursor, ...filters } = query;
  return store.audit.query({ ...filters, limit: limit ?? 100 });
}
