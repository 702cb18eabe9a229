/**
 * Single sign-on for the console (OpenID Connect, authorization code with
 * PKCE), under /admin/auth/, each route public (`config: { public: true }`):
 *
 *   GET  /admin/auth/session          the signed-in person, or 401; both say whether sign-on is on and its label
 *   GET  /admin/auth/oidc/login       302 to the provider (`?return=/console/...` where to land)
 *   GET  /admin/auth/oidc/callback    the provider's answer: a session, then 302 to the console
 *   POST /admin/auth/logout           ends the session (x-switchyard-csrf required with the cookie)
 *
 * The sign-in in flight is kept in the store (its state's hash, PKCE
 * verifier, nonce, return path; 10 minutes), so the callback may reach
 * another instance than the one that sent the person away; a cookie with the
 * state ties it to the browser that started it.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { clearCookie, cookieOf, SESSION_COOKIE, setCookie, STATE_COOKIE } from './cookies.js';
import { OidcClient } from './oidc.js';
import { checkCsrf } from './session-gate.js';
import { sessionOf } from './sessions.js';
import { ssoSetup } from './settings.js';
import { signIn, userActor } from './sign-in.js';

const LOGIN_TTL_MS = 10 * 60_000;
const PUBLIC = { config: { public: true } };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Only a console path: a return address elsewhere would make the gateway an open redirect. */
function returnPath(value: unknown): string {
  return typeof value === 'string' && /^\/console\/[^\\]*$/.test(value) && !value.includes('..') && value.length <= 512 ? value : '/console/';
}

export function registerSsoRoutes(app: FastifyInstance, ctx: AppContext): void {
  const setup = ssoSetup(ctx.settings, ctx.fileConfig);
  if (setup.state === 'broken') ctx.logger.warn({ problem: setup.problem }, 'single sign-on is off');
  const oidc = setup.state === 'on' ? new OidcClient(setup.config) : undefined;
  const probe = setup.state === 'off' ? { enabled: false } : { enabled: setup.state === 'on', label: setup.state === 'on' ? setup.config.label : setup.label };

  const configured = () => {
    if (setup.state === 'off') throw new GatewayError('not_found', 'single sign-on is not configured');
    if (setup.state === 'broken') throw new GatewayError('unavailable', `single sign-on is off: ${setup.problem}`, { status: 503 });
    return { config: setup.config, client: oidc as OidcClient };
  };

  app.get('/auth/session', PUBLIC, async (request, reply) => {
    const principal = await sessionOf(request, ctx.store);
    if (!principal) {
      reply.code(401);
      return { error: { type: 'authentication', message: 'not signed in' }, sso: probe };
    }
    const { id, email, name, role } = principal.user;
    return { user: { id, email, name, role }, expiresAt: principal.session.expiresAt, sso: probe };
  });

  app.get<{ Querystring: { return?: string } }>('/auth/oidc/login', PUBLIC, async (request, reply) => {
    const { client } = configured();
    const start = await client.start();
    const now = Date.now();
    await ctx.store.sessions.pruneExpired(now);
    await ctx.store.sessions.startLogin({ id: sha256(start.state), codeVerifier: start.codeVerifier, nonce: start.nonce, returnTo: returnPath(request.query.return), expiresAt: now + LOGIN_TTL_MS });
    setCookie(request, reply, STATE_COOKIE, start.state, { path: '/admin/auth', maxAge: LOGIN_TTL_MS / 1000 });
    reply.header('cache-control', 'no-store');
    return reply.redirect(start.url, 302);
  });

  app.get('/auth/oidc/callback', PUBLIC, async (request, reply) => {
    const { config, client } = configured();
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const params = new URLSearchParams(query);
    const state = params.get('state');
    clearCookie(request, reply, STATE_COOKIE, '/admin/auth');
    if (!state) throw new GatewayError('invalid_request', 'the sign-in answer has no state; start the sign-in again from the console');
    if (cookieOf(request, STATE_COOKIE) !== state) throw new GatewayError('invalid_request', 'this sign-in was not started in this browser (or its cookie expired); start it again from the console');
    const pending = await ctx.store.sessions.takeLogin(sha256(state));
    if (!pending || pending.expiresAt <= Date.now()) throw new GatewayError('invalid_request', 'this sign-in expired or was already used; start it again from the console');
    const identity = await client.finish(query, { state, codeVerifier: pending.codeVerifier, nonce: pending.nonce });
    const signedIn = await signIn(ctx.store, config, identity, request, ctx.logger);
    ctx.logger.info({ userId: signedIn.user.id, role: signedIn.user.role }, 'console sign-in');
    setCookie(request, reply, SESSION_COOKIE, signedIn.secret, { path: '/admin', maxAge: Math.floor(config.sessionMs / 1000) });
    reply.header('cache-control', 'no-store');
    return reply.redirect(pending.returnTo, 302);
  });

  app.post('/auth/logout', PUBLIC, async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = await sessionOf(request, ctx.store);
    if (principal) {
      checkCsrf(request);
      const { session, user } = principal;
      await ctx.store.transaction(async (tx) => {
        await tx.sessions.delete(session.id);
        await tx.audit.record(userActor(user, request), 'session.logout', 'session', session, null);
      });
    }
    clearCookie(request, reply, SESSION_COOKIE, '/admin');
    reply.code(204);
  });
}
