/**
 * Errors the HTTP framework or Node's parser raise before a family runs
 * (unknown routes, wrong methods, malformed URLs, over-long path parameters,
 * header blocks over the limit, bytes that are not HTTP, unsupported media
 * types, empty bodies) answer in the shape of the family the path belongs
 * to, with a request id, and never break the gateway.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../src/server/client-errors.js';
import { MAX_PATH_PARAM_LENGTH } from '../../src/http/fastify-errors.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(gw.url + path, {
    method,
    headers: {
      authorization: `Bearer ${gw.clientKey}`,
      'x-api-key': gw.clientKey,
      'x-goog-api-key': gw.clientKey,
      'anthropic-version': '2023-06-01',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

/** Sends raw bytes and reads the whole answer (the gateway closes the connection). */
function raw(bytes: string): Promise<string> {
  const { hostname, port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string) {
  const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

const messages = (type: string) => ({ type: 'error', error: { type, message: expect.any(String), code: expect.any(String) }, request_id: expect.stringMatching(/^req_/) });
const openai = { error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: expect.any(String) } };
const google = (code: number, status: string) => ({ error: { code, message: expect.any(String), status } });
const videos = { error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null } };
const generations = { code: null, message: expect.any(String), param: '', type: 'invalid_request_error' };
const images = (code: number) => ({ code, description: expect.any(String), result: null });
const admin = (type: string) => ({ error: { type, message: expect.any(String) } });

describe('unknown routes answer 404 in the shape of their prefix', () => {
  it.each([
    ['/v1/messages/nope', messages('not_found_error')],
    ['/v1/responses/resp_1/nope', openai],
    ['/v1beta/nope', google(404, 'NOT_FOUND')],
    ['/v1/models/a/b/c', google(404, 'NOT_FOUND')],
    ['/v1/videos/1/nope', videos],
    ['/v1/video/nope', generations],
    ['/ig/nope', images(21)],
    ['/admin/nope', admin('not_found')],
    ['/v1/chat/nope', openai],
    ['/nope', openai],
  ])('%s', async (path, shape) => {
    const { status, headers, body } = await call('POST', path, '{}', { 'content-type': 'application/json' });
    expect(status).toBe(404);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(body).toEqual(shape);
  });
});

describe('a known path asked with the wrong method', () => {
  it.each([
    ['GET', '/v1/messages', 405, messages('invalid_request_error')],
    ['PUT', '/v1/responses', 405, openai],
    ['GET', '/v1beta/models/m:generateContent', 400, google(400, 'INVALID_ARGUMENT')],
    ['PUT', '/v1/videos/123', 405, videos],
    ['DELETE', '/v1/video/generations', 405, generations],
    ['GET', '/ig/submit/imagine', 400, images(21)],
    ['PUT', '/admin/keys', 405, admin('invalid_request')],
  ])('%s %s is %i naming the methods that work', async (method, path, expected, shape) => {
    const { status, headers, body } = await call(method, path);
    expect(status).toBe(expected);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(headers.get('allow')).toMatch(/POST|GET/);
    expect(body).toEqual(shape);
    expect(JSON.stringify(body)).toMatch(/is not allowed on .*; use /);
  });
});

describe('malformed URLs (bad percent-encoding) are 400', () => {
  it.each([
    ['/v1/messages/%zz', messages('invalid_request_error')],
    ['/v1/responses/%E0%A4%A', openai],
    ['/v1beta/models/%zz:generateContent', google(400, 'INVALID_ARGUMENT')],
    ['/v1/videos/%zz', videos],
    ['/v1/video/generations/%zz', generations],
    ['/ig/task/%zz/fetch', images(21)],
    ['/admin/keys/%zz', admin('invalid_request')],
    ['/%zz', openai],
  ])('%s', async (path, shape) => {
    const { status, headers, body } = await call('GET', path);
    expect(status).toBe(400);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(body).toEqual(shape);
    expect(JSON.stringify(body)).toMatch(/not a valid URL/);
  });
});

describe(`path parameters over ${MAX_PATH_PARAM_LENGTH} characters`, () => {
  const long = 'a'.repeat(MAX_PATH_PARAM_LENGTH + 1);
  it.each([
    [`/v1/responses/${long}`, 414, openai],
    [`/v1/videos/${long}`, 414, videos],
    [`/v1/video/generations/${long}`, 414, generations],
    [`/ig/task/${long}/fetch`, 400, images(21)],
    [`/admin/keys/${long}`, 414, admin('invalid_request')],
  ])('%s is refused by the router in the family shape', async (path, expected, shape) => {
    const { status, headers, body } = await call('GET', path);
    expect(status).toBe(expected);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(body).toEqual(shape);
  });
  it(`an id of exactly ${MAX_PATH_PARAM_LENGTH} characters reaches the family (not found)`, async () => {
    const { status, body } = await call('GET', `/v1/responses/${'a'.repeat(MAX_PATH_PARAM_LENGTH)}`);
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
  });
  it('a model name over 256 characters in a content-generation path is 400', async () => {
    const { status, body } = await call('POST', `/v1beta/models/${'m'.repeat(257)}:generateContent`, '{}');
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/at most 256 characters/);
  });
});

describe('requests the HTTP parser refuses', () => {
  const big = 'a'.repeat(MAX_HEADER_BYTES + 1024);
  it.each([
    ['/v1/messages', messages('invalid_request_error')],
    ['/v1beta/models/m:generateContent', google(400, 'INVALID_ARGUMENT')],
    ['/ig/submit/imagine', images(21)],
    ['/v1/responses', openai],
  ])(`a header block over ${MAX_HEADER_BYTES} bytes on %s is a well-formed answer in the family shape`, async (path, shape) => {
    const answer = parseRaw(await raw(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`));
    expect([431, 400]).toContain(answer.status);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toEqual(shape);
    expect(JSON.stringify(answer.body)).toMatch(new RegExp(`larger than ${MAX_HEADER_BYTES} bytes`));
  });
  it('Messages keeps the 431 status', async () => {
    const answer = parseRaw(await raw(`GET /v1/messages HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`));
    expect(answer.status).toBe(431);
  });
  it('bytes that are not HTTP get a 400 in the default shape', async () => {
    const answer = parseRaw(await raw('NOT HTTP AT ALL\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    expect(answer.body).toEqual(openai);
  });
});

describe('bodies', () => {
  it.each([
    ['/v1/messages', messages('invalid_request_error')],
    ['/v1/responses', openai],
    ['/v1beta/models/m:generateContent', google(400, 'INVALID_ARGUMENT')],
    ['/admin/keys', admin('invalid_request')],
  ])('a body in an unsupported media type on %s is 415 (400 where the dialect has no 415)', async (path, shape) => {
    const headers: Record<string, string> = path.startsWith('/admin') ? { authorization: `Bearer ${gw.adminKey}` } : {};
    const { status, body } = await call('POST', path, '<xml/>', { 'content-type': 'application/xml', ...headers });
    expect(status).toBe(path.startsWith('/v1beta') ? 400 : 415);
    expect(body).toEqual(shape);
    expect(JSON.stringify(body)).toMatch(/unsupported content-type/);
  });
  it('JSON sent with a wrong content type is still read', async () => {
    const { status } = await call('POST', '/v1/responses', '{"model":"m","input":"hi"}', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(status).toBe(200);
  });
  it.each([
    ['/v1/messages', messages('invalid_request_error')],
    ['/v1/responses', openai],
    ['/v1beta/models/m:generateContent', google(400, 'INVALID_ARGUMENT')],
    ['/v1/messages/count_tokens', messages('invalid_request_error')],
    ['/v1/video/generations', generations],
    ['/ig/submit/imagine', images(21)],
    ['/ig/task/list-by-condition', images(21)],
  ])('an empty body where JSON is required on %s is 400', async (path, shape) => {
    const { status, body } = await call('POST', path, '', { 'content-type': 'application/json' });
    expect(status).toBe(400);
    expect(body).toEqual(shape);
  });
});

it('the gateway still serves afterwards', async () => {
  const { status } = await call('POST', '/v1/messages', '{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}', {
    'content-type': 'application/json',
  });
  expect(status).toBe(200);
});
