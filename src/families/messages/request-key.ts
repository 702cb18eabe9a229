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

export async function authenticateMessagesRequest(ctx: AppContext, request: FastifyRequest): Promise<ClientKey> {
  const secret = headerValue(request, 'x-api-key') ?? bearerToken(request);
  const key = await ctx.auth.authenticate(secret, request.ip);
  if (!headerValue(request, 'anthropic-version')) {
    throw invalidRequest('anthropic-version: header is required', 'anthropic-version');
  }
  return key;
}
