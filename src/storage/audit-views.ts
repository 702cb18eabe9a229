/**
 * What the audit log keeps of each kind of target: its id, its name and its
 * public view (public-views.ts), written once per kind. Secrets never reach
 * an entry: a key's view has no hash, a channel's only the number of its
 * credentials and, on a change, whether they were replaced. A new kind of
 * target (a team, a user) is one line here and one in `AuditSubjects`
 * (types.ts); each operation on it then records itself with
 * `tx.audit.record(actor, 'team.create', 'team', null, team)`.
 */
import { publicChannel, publicKey } from './public-views.js';
import type { TeamMember, TeamRecord, UserRecord } from './team-types.js';
import type { BudgetRecord } from './budget-types.js';
import type { AdminTokenRecord } from './admin-token-types.js';
import type { AdminSessionRecord } from './admin-session-types.js';
import type { AuditKind, AuditSubjects, ChannelRecord, KeyRecord, PriceRecord, SecretChange } from './types.js';

interface AuditTarget<R> {
  id(record: R): string;
  name(record: R): string | null;
  view(record: R): object;
  /** Facts about the change itself that neither view shows (added to the after view). */
  marks?(before: R, after: R): object;
}

const target = <R>(spec: AuditTarget<R>): AuditTarget<R> => spec;

function priceView(record: PriceRecord): object {
  let price: unknown = record.priceJson;
  try {
    price = JSON.parse(record.priceJson);
  } catch {
    // A row edited by hand into something else: kept as the text it is.
  }
  return { model: record.model, price, source: record.source, updatedAt: record.updatedAt };
}

// Sealed values differ whenever a credential is sealed again, so unequal lists mean the credentials were given anew.
const sameSealed = (a: string[], b: string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

export const AUDIT_TARGETS: { readonly [K in AuditKind]: AuditTarget<AuditSubjects[K]> } = {
  key: target<KeyRecord>({ id: (r) => r.id, name: (r) => r.name, view: publicKey }),
  channel: target<ChannelRecord>({
    id: (r) => r.id,
    name: (r) => r.name,
    view: publicChannel,
    marks: (before, after) => ({ apiKeysReplaced: !sameSealed(before.apiKeysEncrypted, after.apiKeysEncrypted) }),
  }),
  price: target<PriceRecord>({ id: (r) => r.model, name: (r) => r.model, view: priceView }),
  'admin-key': target<SecretChange>({ id: (r) => r.id, name: () => null, view: (r) => r.facts }),
  'secret-key': target<SecretChange>({ id: (r) => r.id, name: () => null, view: (r) => r.facts }),
  team: target<TeamRecord>({ id: (r) => r.id, name: (r) => r.name, view: (r) => r }),
  user: target<UserRecord>({ id: (r) => r.id, name: (r) => r.email, view: (r) => r }),
  'team-member': target<TeamMember>({ id: (r) => `${r.teamId}/${r.userId}`, name: () => null, view: (r) => r }),
  budget: target<BudgetRecord>({ id: (r) => r.id, name: (r) => r.name, view: (r) => ({ ...r }) }),
  // A token record has no secret and no hash: the whole of it is public.
  'admin-token': target<AdminTokenRecord>({ id: (r) => r.id, name: (r) => r.name, view: (r) => ({ ...r }) }),
  // A session is named by a short prefix of its id (itself a hash of the cookie's secret), enough to tell a login from its logout.
  session: target<AdminSessionRecord>({
    id: (r) => `ses_${r.id.slice(0, 16)}`,
    name: () => null,
    view: (r) => ({ userId: r.userId, createdAt: r.createdAt, expiresAt: r.expiresAt }),
  }),
};

/** The target's columns of an entry: who or what changed, and its views before and after. */
export function auditTargetOf<K extends AuditKind>(kind: K, before: AuditSubjects[K] | null, after: AuditSubjects[K] | null) {
  const spec = AUDIT_TARGETS[kind] as AuditTarget<AuditSubjects[K]>;
  const subject = after ?? before;
  const afterView = after === null ? null : before !== null && spec.marks ? { ...spec.view(after), ...spec.marks(before, after) } : spec.view(after);
  return {
    targetId: subject === null ? null : spec.id(subject),
    targetName: subject === null ? null : spec.name(subject),
    before: before === null ? null : spec.view(before),
    after: afterView,
  };
}
