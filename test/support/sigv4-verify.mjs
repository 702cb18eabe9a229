/**
 * AWS Signature Version 4, recomputed from a request as the service does,
 * written here from AWS's description of the process (not with the signer
 * the gateway uses), so a signing bug in the gateway fails the fakes:
 *
 * canonical request = method, canonical URI (each path segment URI-encoded
 * again: AWS services other than S3 sign the path twice encoded), canonical
 * query (names and values encoded, sorted), the signed headers' `name:value`
 * lines (lower-cased, values trimmed, inner spaces collapsed), the signed
 * header list, the payload's SHA-256 hex; string to sign = algorithm, date,
 * scope, hash of the canonical request; key = HMAC chain of the secret over
 * date, region, service and `aws4_request`.
 *
 * Plain JavaScript (its types in sigv4-verify.d.mts) so that the vitest fakes
 * and the agent harness's fakes, which node runs as they are, share it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** @typedef {import('./sigv4-verify.d.mts').SigningSecret} SigningSecret */
/** @typedef {import('./sigv4-verify.d.mts').SignedRequest} SignedRequest */
/** @typedef {import('./sigv4-verify.d.mts').Expected} Expected */

/**
 * Undefined when the signature holds, else why the service would refuse it.
 * @param {SignedRequest} request
 * @param {ReadonlyMap<string, SigningSecret>} secrets
 * @param {Expected} expected
 * @returns {string | undefined}
 */
export function sigv4Problem(request, secrets, expected) {
  const authorization = header(request.headers, 'authorization');
  const parsed = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization ?? '');
  if (!parsed) return 'Authorization header requires Credential, SignedHeaders and Signature';
  const [, accessKeyId, day, region, service, signedList, signature] = parsed;
  const secret = secrets.get(accessKeyId);
  if (!secret) return 'The security token included in the request is invalid.';
  if (region !== expected.region || service !== expected.service) return `Credential should be scoped to a valid region and service (${expected.region}/${expected.service})`;
  const amzDate = header(request.headers, 'x-amz-date');
  if (!amzDate || !/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== day) return 'x-amz-date is missing or does not match the credential scope date';
  const signedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  const now = (expected.now ?? new Date()).getTime();
  if (Math.abs(now - signedAt) > (expected.skewMs ?? 5 * 60_000)) return 'Signature expired';
  const signedHeaders = signedList.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) return 'host and x-amz-date must be signed';
  if (secret.sessionToken !== undefined) {
    if (header(request.headers, 'x-amz-security-token') !== secret.sessionToken) return 'The security token included in the request is invalid.';
    if (!signedHeaders.includes('x-amz-security-token')) return 'x-amz-security-token must be signed';
  }
  const payloadHash = createHash('sha256').update(request.body).digest('hex');
  const claimed = header(request.headers, 'x-amz-content-sha256');
  if (claimed !== undefined && claimed !== payloadHash) return 'The provided x-amz-content-sha256 header does not match what was computed.';
  const canonical = canonicalRequest(request, signedHeaders, payloadHash);
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const expectedSignature = hmac(signingKey(secret.secretAccessKey, day, region, service), stringToSign).toString('hex');
  if (!timingSafeEqual(Buffer.from(expectedSignature), Buffer.from(signature)))
    return 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.';
  return undefined;
}

/**
 * The canonical request AWS hashes into the string to sign.
 * @param {SignedRequest} request
 * @param {readonly string[]} signedHeaders
 * @param {string} payloadHash
 * @returns {string}
 */
export function canonicalRequest(request, signedHeaders, payloadHash) {
  const [path, query = ''] = request.url.split('?', 2);
  const lines = signedHeaders.map((name) => `${name}:${(header(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`);
  return [request.method, canonicalUri(path), canonicalQuery(query), lines.join(''), signedHeaders.join(';'), payloadHash].join('\n');
}

/**
 * Each segment as sent, URI-encoded once more.
 * @param {string} path
 */
function canonicalUri(path) {
  return path
    .split('/')
    .map((segment) => uriEncode(segment))
    .join('/');
}

/** @param {string} query */
function canonicalQuery(query) {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const [name, value = ''] = pair.split('=', 2);
      return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(value.replace(/\+/g, ' ')))];
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * RFC 3986 unreserved characters kept, everything else %XX (upper-case hex).
 * @param {string} text
 */
function uriEncode(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * @param {string} secret
 * @param {string} day
 * @param {string} region
 * @param {string} service
 * @returns {Buffer}
 */
function signingKey(secret, day, region, service) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
}

/**
 * @param {string | Buffer} key
 * @param {string} data
 * @returns {Buffer}
 */
function hmac(key, data) {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/**
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {string} name
 * @returns {string | undefined}
 */
function header(headers, name) {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
