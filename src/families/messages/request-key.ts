/**
 * The client key of a Messages-family request: `x-api-key` or
 * `Authorization: Bearer` (current official clients send Bearer), and the
 * `anthropic-version` header every Messages endpoint requires.
 */
import type { FastifyRequest } from 'fastify';
import { invalidRequest } from '../../core/errors.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken, headerValue } from '../../http/credentials.js';

/** The key, checked before the version header (a bad key is a 401 first); a promise only when the key is read from storage. */
export function authenticateMessagesRequest(ctx: AppContext, request: FastifyRequest): ClientKey | Promise<ClientKey> {
  const secret = headerValue(request, 'x-api-key') ?? bearerToken(request);
  const key = ctx.auth.authenticate(secret, request.ip);
  return key instanceof Promise ? key.then((found) => withVersion(request, found)) : withVersion(request, key);
}

function withVersion(request: FastifyRequest, key: ClientKey): ClientKey {
  if (!headerValue(request, 'anthropic-version')) {
    throw invalidRequest('anthropic-version: header is required', 'anthropic-version');
  }
  return key;
}
