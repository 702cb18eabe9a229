/**
 * Inline media is checked before any work, on the translated path (the
 * simulator) and the pass-through path alike (the native upstream never
 * sees a refused request): base64 must decode, declared image types must
 * match the bytes, sizes stay within MAX_INLINE_MEDIA_BYTES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INLINE_MEDIA_BYTES } from '../../src/core/media.js';
import { IMAGE_HEADS, PNG_HEAD } from '../support/media-samples.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { fixtureText } from '../upstreams/support/fixtures.js';

const JPEG_HEAD = IMAGE_HEADS['image/jpeg'];
let anthropic: FakeUpstream;
let gemini: FakeUpstream;
let openai: FakeUpstream;
let gw: TestGateway;
const KEY = 'sk-media-input-0001';

beforeAll(async () => {
  const json = (body: string) => ({ status: 200, headers: { 'content-type': 'application/json' }, body });
  anthropic = await startFakeUpstream(() => json(fixtureText('anthropic-messages', 'anthropic-text.json')));
  gemini = await startFakeUpstream(() => json(fixtureText('gemini', 'google-text.json')));
  openai = await startFakeUpstream(() => json(fixtureText('openai-responses', 'openai-pdf-input-file.1.json')));
  gw = await startGateway({
    config: {
      channels: [
        { name: 'anthropic', type: 'anthropic', baseUrl: anthropic.origin, apiKey: 'sk-up-a', models: ['native-messages'] },
        { name: 'gemini', type: 'gemini', baseUrl: gemini.origin, apiKey: 'sk-up-g', models: ['native-generate'] },
        { name: 'openai', type: 'openai-responses', baseUrl: `${openai.origin}/v1`, apiKey: 'sk-up-o', models: ['native-responses'] },
        // The translated path: a simulator channel beside the providers' (the built-in one serves only without them).
        { name: 'sim', type: 'simulator', models: ['sim-model'] },
      ],
      keys: [{ name: 'client', key: KEY }],
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([anthropic?.close(), gemini?.close(), openai?.close()]);
});

async function post(path: string, body: unknown) {
  const response = await fetch(gw.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'x-goog-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const models = (native: string) =>
  [
    ['translated', 'sim-model'],
    ['pass-through', native],
  ] as const;

describe.each(models('native-messages'))('Messages (%s)', (_path, model) => {
  const image = (media_type: string, data: string) => ({
    model,
    max_tokens: 10,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type, data } },
          { type: 'text', text: 'what is it?' },
        ],
      },
    ],
  });
  const pdf = (data: string) => ({
    model,
    max_tokens: 10,
    messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] }],
  });
  it.each([
    ['data that is not base64', image('image/png', 'not base64!'), /image data is not valid base64/],
    ['data of an impossible length', image('image/png', `${PNG_HEAD.slice(0, -1)}AA`), /image data is not valid base64/],
    ['padding in the middle', image('image/png', `AA==${PNG_HEAD}`), /image data is not valid base64/],
    ['JPEG bytes declared as PNG', image('image/png', JPEG_HEAD), /declares image\/png, but the bytes are a image\/jpeg image/],
    ['bytes that are no image', image('image/webp', 'AAAAAAAAAAAAAAAA'), /is not a image\/webp image/],
    ['a PDF that is not base64', pdf('%PDF-1.4 raw'), /document data is not valid base64/],
  ])('refuses %s with a 400', async (_label, body, message) => {
    const before = anthropic.requests.length;
    const { status, body: error } = await post('/v1/messages', body);
    expect(status).toBe(400);
    expect(error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(message) } });
    expect(error.error.message).toMatch(/^messages\.0\.content\.0\.source\.data: /);
    expect(anthropic.requests.length).toBe(before);
  });
  it('serves an image whose bytes are what it declares', async () => {
    for (const [type, head] of Object.entries(IMAGE_HEADS)) expect((await post('/v1/messages', image(type, head))).status).toBe(200);
  });
});

describe.each(models('native-responses'))('Responses (%s)', (_path, model) => {
  const withPart = (part: Record<string, unknown>) => ({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }, part] }] });
  it.each([
    ['an input_image data URL that is not an image', { type: 'input_image', image_url: 'data:text/plain;base64,aGVsbG8=' }, /not an image/],
    ['an input_image data URL with bad base64', { type: 'input_image', image_url: 'data:image/png;base64,@@@@' }, /not valid base64/],
    ['an input_image whose bytes are another type', { type: 'input_image', image_url: `data:image/jpeg;base64,${PNG_HEAD}` }, /declares image\/jpeg, but the bytes are a image\/png/],
    ['an input_image that is neither URL nor data URL', { type: 'input_image', image_url: 'ftp://x/y.png' }, /http\(s\) URL or a base64 data URL/],
    ['input_file data that is not base64', { type: 'input_file', filename: 'a.pdf', file_data: 'plain text, not base64' }, /not valid base64/],
    ['an input_file data URL with bad base64', { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,%%%' }, /the data URL is not valid base64/],
  ])('refuses %s with a 400', async (_label, part, message) => {
    const before = openai.requests.length;
    const { status, body } = await post('/v1/responses', withPart(part));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(message) });
    expect(openai.requests.length).toBe(before);
  });
  it('accepts valid images and files (translated: served; pass-through: sent upstream)', async () => {
    const before = openai.requests.length;
    const image = await post('/v1/responses', withPart({ type: 'input_image', image_url: `data:image/png;base64,${PNG_HEAD}` }));
    const file = await post('/v1/responses', withPart({ type: 'input_file', filename: 'a.pdf', file_data: 'JVBERi0xLjQ=' }));
    expect(image.status).toBe(200);
    expect(file.status).toBe(200);
    expect(openai.requests.length).toBe(model === 'sim-model' ? before : before + 2);
  });
});

describe.each(models('native-generate'))('content generation (%s)', (_path, model) => {
  const inline = (mimeType: string, data: string) => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType, data } }] }] });
  it.each([
    ['PNG declared, JPEG bytes', inline('image/png', JPEG_HEAD), /declares image\/png, but the bytes are a image\/jpeg/],
    ['data of an impossible length', inline('image/png', 'iVBORw0KGgoA'.slice(0, 9)), /not valid base64/],
    ['image data that is no image', inline('image/jpeg', 'AAAAAAAA'), /is not a image\/jpeg image/],
  ])('refuses %s with a 400', async (_label, body, message) => {
    const before = gemini.requests.length;
    const { status, body: error } = await post(`/v1beta/models/${model}:generateContent`, body);
    expect(status).toBe(400);
    expect(error.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(message) });
    expect(gemini.requests.length).toBe(before);
  });
  it('takes URL-safe base64 and types it cannot check by their bytes (audio, HEIC)', async () => {
    const { status } = await post(`/v1beta/models/${model}:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'audio/wav', data: 'AA-_AA' } }, { inlineData: { mimeType: 'image/heic', data: 'AAAA' } }] }],
    });
    expect(status).toBe(200);
  });
});

it(`an image decoding to more than ${MAX_INLINE_MEDIA_BYTES} bytes is refused without reaching anyone`, async () => {
  const data = PNG_HEAD.slice(0, 8) + 'A'.repeat(Math.ceil((MAX_INLINE_MEDIA_BYTES * 4) / 3) + 8);
  const { status, body } = await post('/v1/messages', {
    model: 'native-messages',
    max_tokens: 10,
    messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }] }],
  });
  expect(status).toBe(400);
  expect(body.error.message).toMatch(/decodes to more than 20 MiB/);
});
