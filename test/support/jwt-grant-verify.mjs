/**
 * Google's OAuth token endpoint's check of a service account's JWT-bearer
 * grant (RFC 7523), as the fakes of Vertex AI do it: the grant type, an RS256
 * assertion whose signature the account's public key verifies, naming the
 * account as issuer, the token endpoint as audience and the cloud-platform
 * scope, issued now and living at most an hour. The refusals are Google's
 * `error_description`s.
 *
 * Plain JavaScript (its types in jwt-grant-verify.d.mts) so that the vitest
 * fake (fake-vertex.ts) and the agent harness's fake (test/agents/fakes/
 * vertex.mjs), which node runs as it is, share it.
 */
import { verify } from 'node:crypto';

export const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * @param {string} part
 * @returns {Record<string, any> | undefined}
 */
function jsonPart(part) {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why the token endpoint would refuse this grant, or undefined when it takes it.
 * @param {URLSearchParams} form the token request's form
 * @param {import('./jwt-grant-verify.d.mts').GrantExpected} expected
 * @returns {string | undefined}
 */
export function jwtGrantRefusal(form, expected) {
  if (form.get('grant_type') !== JWT_BEARER) return 'Invalid grant_type';
  const parts = (form.get('assertion') ?? '').split('.');
  if (parts.length !== 3) return 'Invalid JWT.';
  const header = jsonPart(parts[0]);
  const claims = jsonPart(parts[1]);
  if (header?.alg !== 'RS256' || !claims) return 'Invalid JWT.';
  if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), expected.publicKey, Buffer.from(parts[2], 'base64url'))) return 'Invalid JWT Signature.';
  if (claims.iss !== expected.clientEmail) return 'Invalid issuer.';
  if (claims.aud !== expected.tokenUri) return 'Invalid JWT audience.';
  if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(CLOUD_PLATFORM)) return 'Invalid OAuth scope.';
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.iat > now + 60 || claims.exp <= now || claims.exp - claims.iat > 3600)
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  return undefined;
}
