/**
 * Every image-task and video route that takes a body refuses `{}` (and a body
 * that is not an object) with a 400 in its family's shape naming the missing
 * field, before any task is made or charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function post(path: string, body: string) {
  const response = await fetch(gw.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.clientKey}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('image tasks: {} is code 21 naming the required field', () => {
  it.each([
    ['/ig/submit/imagine', 'prompt'],
    ['/ig/submit/blend', 'base64Array'],
    ['/ig/submit/describe', 'base64'],
    ['/ig/submit/shorten', 'prompt'],
    ['/ig/submit/action', 'taskId'],
    ['/ig/submit/modal', 'taskId'],
    ['/ig/submit/upload-discord-images', 'base64Array'],
    ['/ig/face/swap', 'sourceBase64'],
    ['/ig/insight-face/swap', 'sourceBase64'],
    ['/ig/task/list-by-condition', 'ids'],
    ['/ig/task/list-by-ids', 'ids'],
  ])('%s needs %s', async (path, field) => {
    const { status, body } = await post(path, '{}');
    expect(status).toBe(400);
    expect(body).toEqual({ code: 21, description: `${field}: required`, result: null });
  });
  it.each(['[]', '"ids"', '42', 'null'])('a body of %s is code 21', async (raw) => {
    const { status, body } = await post('/ig/task/list-by-condition', raw);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 21, result: null });
  });
  it('an id list of non-strings is code 21 naming the item', async () => {
    const { status, body } = await post('/ig/task/list-by-condition', '{"ids":[1]}');
    expect(status).toBe(400);
    expect(body.description).toBe('ids.0: must be a string');
  });
});

describe('video: {} is a 400 naming the required field', () => {
  it('POST /v1/videos needs a prompt', async () => {
    const { status, body } = await post('/v1/videos', '{}');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'prompt', message: expect.stringMatching(/^prompt: /) });
  });
  it('POST /v1/video/generations needs a prompt', async () => {
    const { status, body } = await post('/v1/video/generations', '{}');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: null, type: 'invalid_request_error', param: 'prompt' });
  });
  it('POST /v1/videos/{id}/remix needs a prompt', async () => {
    const created = await post('/v1/videos', '{"prompt":"a cat"}');
    expect(created.status).toBe(201);
    const { status, body } = await post(`/v1/videos/${created.body.id}/remix`, '{}');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'prompt' });
  });
  it.each(['/v1/videos', '/v1/video/generations'])('a body that is not an object on %s is 400', async (path) => {
    expect((await post(path, '[1]')).status).toBe(400);
    expect((await post(path, '"a cat"')).status).toBe(400);
  });
});
