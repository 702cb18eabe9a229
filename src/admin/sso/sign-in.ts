/**
 * A finished sign-in made into a session, in one transaction with its audit
 * entries: the user is found by the provider's subject, else by email (and
 * linked to the subject), else created just in time when the mapping allows;
 * a disabled user is refused; the mapping's role and memberships are applied
 * (mapping.ts; memberships it removes go after the transaction, as a removal
 * runs its own); then the session is opened. Audit: the link, the creation
 * and the mapping's changes are by actor `sso` (named by the issuer), the
 * login itself (`session.login`) by the user.
 */
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { GatewayError } from '../../core/errors.js';
import type { AdminSessionRecord } from '../../storage/admin-session-types.js';
import type { AuditActor } from '../../storage/audit-types.js';
import type { UserRecord } from '../../storage/team-types.js';
import type { Store, StoreWrites } from '../../storage/types.js';
import { applyMapping, removeMemberships } from './mapping.js';
import type { SignedInIdentity } from './oidc.js';
import { openSession } from './sessions.js';
import type { SsoConfig } from './settings.js';

export const userActor = (user: UserRecord, request: FastifyRequest): AuditActor => ({ kind: 'user', id: user.id, name: user.email, requestId: request.id, clientIp: request.ip });

export interface SignedIn {
  user: UserRecord;
  secret: string;
  session: AdminSessionRecord;
}

export async function signIn(store: Store, config: SsoConfig, identity: SignedInIdentity, request: FastifyRequest, logger: Logger): Promise<SignedIn> {
  const sso: AuditActor = { kind: 'sso', id: null, name: config.issuer.href, requestId: request.id, clientIp: request.ip };
  const { signedIn, removals } = await store.transaction(async (tx) => {
    const found = await findOrCreate(tx, config, identity, sso);
    if (found.status !== 'active') throw new GatewayError('permission', 'this user is disabled; ask an administrator');
    const { user, removals } = await applyMapping(tx, found, config.mapping, identity.groups, sso, logger);
    const { secret, session } = await openSession(tx, user.id, config.sessionMs, identity.sid);
    await tx.audit.record(userActor(user, request), 'session.login', 'session', null, session);
    return { signedIn: { user, secret, session }, removals };
  });
  await removeMemberships(store, removals, sso, logger);
  return signedIn;
}

async function findOrCreate(tx: StoreWrites, config: SsoConfig, identity: SignedInIdentity, actor: AuditActor): Promise<UserRecord> {
  const known = await tx.users.getByExternalId(identity.subject);
  if (known) return known;
  if (!identity.email) throw new GatewayError('permission', 'the provider named no email address for this person (ask for the `email` scope)');
  const byEmail = await tx.users.getByEmail(identity.email);
  if (byEmail) {
    // Linking by an address the provider says it did not verify would let anyone claim a stored user.
    if (identity.emailVerified === false) throw new GatewayError('permission', 'the provider has not verified this email address, so it cannot be linked to a stored user');
    if (byEmail.externalId !== null) throw new GatewayError('permission', 'this email address belongs to a user linked to another sign-in identity');
    const linked = (await tx.users.update(byEmail.id, { externalId: identity.subject })) ?? byEmail;
    await tx.audit.record(actor, 'user.link', 'user', byEmail, linked);
    return linked;
  }
  if (!config.mapping.justInTime) throw new GatewayError('permission', 'no gateway user has this email address, and sign-on creates none (sso.justInTime is off)');
  const created = await tx.users.create({ email: identity.email, name: identity.name, externalId: identity.subject });
  await tx.audit.record(actor, 'user.create', 'user', null, created);
  return created;
}
