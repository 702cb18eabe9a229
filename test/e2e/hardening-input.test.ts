/**
 * Client input that used to produce a 500, on SQLite and PostgreSQL: broken
 * multipart bodies, JSON nested thousands of levels deep in every family and
 * the admin API, repeated admin query parameters, NUL bytes in path ids and
 * model names. Each gets a 4xx in the family's own error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/core/json-depth.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const deep = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
const DEEP = deep(3000);

describe.each(ENGINES)('hostile client input on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start();
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    const response = await fetch(gw.url + path, {
      method,
      headers: {
        'x-api-key': gw.clientKey,
        authorization: `Bearer ${gw.clientKey}`,
        'x-goog-api-key': gw.clientKey,
        'mj-api-secret': gw.clientKey,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) };
  }
  const admin = (method: string, path: string, body?: string) => call(method, `/admin${path}`, body, { authorization: `Bearer ${gw.adminKey}` });

  const messagesShape = (message: RegExp) => ({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(message) } });
  const videosShape = (message: RegExp) => ({ error: { type: 'invalid_request_error', message: expect.stringMatching(message), param: null, code: null } });

  describe('multipart on POST /v1/videos', () => {
    const form = '--x\r\ncontent-disposition: form-data; name="prompt"\r\n\r\na cat\r\n--x--\r\n';
    it.each([
      ['no boundary', 'multipart/form-data', form, /no boundary/],
      ['a mismatched boundary', 'multipart/form-data; boundary=y', form, /malformed/],
      ['a body cut inside a part', 'multipart/form-data; boundary=x', form.slice(0, 50), /malformed/],
    ])('%s is a 400', async (_label, contentType, body, message) => {
      const { status, body: error } = await call('POST', '/v1/videos', body, { 'content-type': contentType });
      expect(status).toBe(400);
      expect(error).toEqual(videosShape(message));
    });
  });

  describe('JSON nested 3,000 levels deep', () => {
    const depthMessage = /more than 128 levels deep/;
    it('Messages input_schema', async () => {
      const body = `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"t","input_schema":${DEEP}}]}`;
      const { status, body: error } = await call('POST', '/v1/messages', body);
      expect(status).toBe(400);
      expect(error).toMatchObject(messagesShape(depthMessage));
    });
    it.each([
      ['responseSchema', `"generationConfig":{"responseMimeType":"application/json","responseSchema":${DEEP}}`],
      ['function parameters', `"tools":[{"functionDeclarations":[{"name":"f","parameters":${DEEP}}]}]`],
    ])('Gemini %s', async (_label, field) => {
      const body = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],${field}}`;
      const { status, body: error } = await call('POST', '/v1beta/models/m:generateContent', body);
      expect(status).toBe(400);
      expect(error).toEqual({ error: { code: 400, message: expect.stringMatching(depthMessage), status: 'INVALID_ARGUMENT' } });
    });
    it('Gemini functionResponse.response', async () => {
      const body = `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":${DEEP}}}]}]}`;
      const { status } = await call('POST', '/v1beta/models/m:generateContent', body);
      expect(status).toBe(400);
    });
    it.each([
      ['text.format.schema', `"text":{"format":{"type":"json_schema","name":"x","schema":${DEEP}}}`],
      ['function parameters', `"tools":[{"type":"function","name":"f","parameters":${DEEP}}]`],
    ])('Responses %s', async (_label, field) => {
      const { status, body: error } = await call('POST', '/v1/responses', `{"model":"m","input":"hi",${field}}`);
      expect(status).toBe(400);
      expect(error.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(depthMessage) });
    });
    it('admin channel settings', async () => {
      const { status, body } = await admin('POST', '/channels', `{"name":"deep","type":"simulator","settings":${DEEP}}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: { type: 'invalid_request', message: expect.stringMatching(depthMessage) } });
    });
    it(`a body exactly ${MAX_JSON_DEPTH} levels deep is served`, async () => {
      // The body object, tools array, tool object and input_schema take four of the levels.
      const body = `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"t","input_schema":${deep(MAX_JSON_DEPTH - 3)}}]}`;
      expect((await call('POST', '/v1/messages', body)).status).toBe(200);
    });
  });

  describe('repeated admin query parameters', () => {
    it.each(['/logs', '/usage'])('%s?keyId=a&keyId=b is a 400 naming the parameter', async (path) => {
      const { status, body } = await admin('GET', `${path}?keyId=a&keyId=b`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: { type: 'invalid_request', message: 'keyId: give this query parameter once', param: 'keyId' } });
    });
  });

  describe('NUL bytes in ids', () => {
    it('GET /ig/task/%00/fetch is not found (code 21)', async () => {
      const { status, body } = await call('GET', '/ig/task/%00/fetch');
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 21, result: null });
    });
    it('list-by-condition skips an id with a NUL byte', async () => {
      const { status, body } = await call('POST', '/ig/task/list-by-condition', '{"ids":["\\u0000"]}');
      expect(status).toBe(200);
      expect(body).toEqual([]);
    });
    it.each([
      ['GET', '/v1/responses/%00'],
      ['DELETE', '/v1/responses/%00'],
      ['GET', '/v1/responses/%00/input_items'],
    ])('%s %s is not found', async (method, path) => {
      const { status, body } = await call(method, path);
      expect(status).toBe(404);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
    });
    it('a client input item id with a NUL byte is stored with its response', async () => {
      const input = '[{"type":"message","id":"msg_\\u0000","role":"user","content":"hi"}]';
      const created = await call('POST', '/v1/responses', `{"model":"m","input":${input}}`);
      expect(created.status).toBe(200);
      const stored = await call('GET', `/v1/responses/${created.body.id}`);
      expect(stored.status).toBe(200);
      const items = await call('GET', `/v1/responses/${created.body.id}/input_items`);
      expect(items.body.data[0].id).toBe('msg_\u0000');
    });
    it('previous_response_id with a NUL byte is not found', async () => {
      const { status } = await call('POST', '/v1/responses', '{"model":"m","input":"hi","previous_response_id":"resp_\\u0000"}');
      expect(status).toBe(404);
    });
    it.each([
      ['GET', '/keys/%00'],
      ['PATCH', '/keys/%00'],
      ['GET', '/channels/%00'],
      ['PATCH', '/channels/%00'],
      ['DELETE', '/channels/%00'],
    ])('admin %s %s is not found', async (method, path) => {
      const { status, body } = await admin(method, path, method === 'PATCH' ? '{}' : undefined);
      expect(status).toBe(404);
      expect(body.error.type).toBe('not_found');
    });
  });

  describe('model names with a NUL byte are refused before they reach a log row', () => {
    it('Messages', async () => {
      const { status, body } = await call('POST', '/v1/messages', '{"model":"m\\u0000x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}');
      expect(status).toBe(400);
      expect(body).toMatchObject(messagesShape(/control characters/));
    });
    it('Responses', async () => {
      const { status, body } = await call('POST', '/v1/responses', '{"model":"m\\u0000x","input":"hi"}');
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ param: 'model', message: expect.stringMatching(/control characters/) });
    });
    it('content generation (model in the path)', async () => {
      const { status, body } = await call('POST', '/v1beta/models/m%00x:generateContent', '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}');
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    });
    it('video', async () => {
      const { status, body } = await call('POST', '/v1/videos', '{"model":"sora-2\\u0000","prompt":"a cat"}');
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ param: 'model', message: expect.stringMatching(/control characters/) });
    });
    it('the gateway still serves and logs ordinary requests', async () => {
      const ok = await call('POST', '/v1/messages', '{"model":"plain-model","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}');
      expect(ok.status).toBe(200);
      const logs = await admin('GET', '/logs?model=plain-model');
      expect(logs.status).toBe(200);
      expect(logs.body.data.length).toBeGreaterThan(0);
    });
  });
});
