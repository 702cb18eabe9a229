/**
 * The limits of README "Limits" that no other test file holds at its edge:
 * multipart parts, fields and files, image-task prompts and id lists, the
 * Responses model name, admin record names. (The others: oversized-body,
 * framework-errors, hardening-input, media-input, images-errors,
 * families/videos/validation, admin-validation.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MODEL_NAME_LENGTH } from '../../src/core/model-name.js';
import { MAX_REFERENCE_BYTES } from '../../src/families/videos/reference-image.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

const auth = () => ({ authorization: `Bearer ${gw.clientKey}` });

async function postForm(form: FormData) {
  const response = await fetch(`${gw.url}/v1/videos`, { method: 'POST', headers: auth(), body: form });
  return { status: response.status, body: (await response.json()) as any };
}

async function postJson(path: string, body: unknown) {
  const response = await fetch(gw.url + path, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('multipart on POST /v1/videos', () => {
  const form = (entries: Array<[string, string | Blob]>) => {
    const body = new FormData();
    body.append('prompt', 'a cat');
    for (const [name, value] of entries) body.append(name, value);
    return body;
  };
  it('a field over 256 KiB is a 400 naming it', async () => {
    const { status, body } = await postForm(form([['size', 'x'.repeat(256 * 1024 + 1)]]));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'size', message: 'size: longer than 262144 bytes' });
  });
  it('more than 40 parts is refused with a 4xx', async () => {
    const { status, body } = await postForm(form(Array.from({ length: 41 }, (_, i) => [`f${i}`, 'x'] as [string, string])));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body.error.type).toBe('invalid_request_error');
  });
  it('more than 32 fields is refused with a 4xx', async () => {
    const { status } = await postForm(form(Array.from({ length: 32 }, (_, i) => [`f${i}`, 'x'] as [string, string])));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
  it('a second file is refused with a 4xx', async () => {
    const png = new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' });
    const { status } = await postForm(
      form([
        ['input_reference', png],
        ['input_reference', png],
      ]),
    );
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
  it(`a reference image over ${MAX_REFERENCE_BYTES / 1024 / 1024} MiB is refused with a 4xx`, async () => {
    const big = new Blob([Buffer.alloc(MAX_REFERENCE_BYTES + 1024)], { type: 'image/png' });
    const { status, body } = await postForm(form([['input_reference', big]]));
    expect([400, 413]).toContain(status);
    expect(body.error.type).toBe('invalid_request_error');
  });
});

describe('image tasks', () => {
  it('a prompt over 8192 characters is code 21', async () => {
    const { status, body } = await postJson('/ig/submit/imagine', { prompt: 'x'.repeat(8193) });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 21, description: 'prompt: must be at most 8192 characters' });
  });
  it('a list of more than 1000 ids is code 21', async () => {
    const { status, body } = await postJson('/ig/task/list-by-condition', { ids: Array.from({ length: 1001 }, (_, i) => String(i)) });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 21, description: 'ids: at most 1000 ids' });
  });
});

it(`a Responses model name over ${MAX_MODEL_NAME_LENGTH} characters is a 400`, async () => {
  const { status, body } = await postJson('/v1/responses', { model: 'm'.repeat(MAX_MODEL_NAME_LENGTH + 1), input: 'hi' });
  expect(status).toBe(400);
  expect(body.error).toMatchObject({ param: 'model', message: expect.stringMatching(/at most 256 characters/) });
  expect((await postJson('/v1/responses', { model: 'm'.repeat(MAX_MODEL_NAME_LENGTH), input: 'hi' })).status).toBe(200);
});

it('admin record names are 1 to 128 characters', async () => {
  expect((await gw.admin('POST', '/keys', { name: 'n'.repeat(129) })).status).toBe(400);
  expect((await gw.admin('POST', '/keys', { name: '' })).status).toBe(400);
  expect((await gw.admin('POST', '/keys', { name: 'n'.repeat(128) })).status).toBe(201);
});
