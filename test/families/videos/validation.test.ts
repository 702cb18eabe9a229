/**
 * Every field rule of both request shapes, over HTTP: each refusal is a 400
 * (or the status the rule calls for) in the shape's error body, naming the
 * field; the accepted forms are accepted. Authentication, permission,
 * balance and unknown models too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../support/gateway.js';
import { createPlace, type Place } from '../../support/places.js';
import { dataUrl, pngBytes, videoHttp, type VideoHttp } from './support.js';

const KEY = 'sk-videos-validation-1';
const LIMITED_KEY = 'sk-videos-validation-2';
const POOR_KEY = 'sk-videos-validation-3';

interface Case {
  name: string;
  body: unknown;
  status?: number;
  param: string;
  message: RegExp;
}

const wan = 'wan2.2-t2v-plus';

const videoCases: Case[] = [
  { name: 'prompt missing', body: { model: 'sora-2' }, param: 'prompt', message: /prompt: is required/ },
  { name: 'prompt not a string', body: { prompt: 42 }, param: 'prompt', message: /must be a string/ },
  { name: 'prompt empty', body: { prompt: '   ' }, param: 'prompt', message: /must not be empty/ },
  { name: 'prompt too long', body: { prompt: 'x'.repeat(32_001) }, param: 'prompt', message: /at most 32000/ },
  { name: 'seconds zero', body: { prompt: 'p', seconds: '0' }, param: 'seconds', message: /whole number of seconds from 1 to 60/ },
  { name: 'seconds too many', body: { prompt: 'p', seconds: '61' }, param: 'seconds', message: /from 1 to 60/ },
  { name: 'seconds fraction', body: { prompt: 'p', seconds: '2.5' }, param: 'seconds', message: /whole number/ },
  { name: 'seconds text', body: { prompt: 'p', seconds: 'four' }, param: 'seconds', message: /whole number/ },
  { name: 'size W*H for a standard model', body: { prompt: 'p', size: '720*1280' }, param: 'size', message: /<width>x<height>/ },
  { name: 'size tier for a standard model', body: { prompt: 'p', size: '720P' }, param: 'size', message: /is not a size for model sora-2/ },
  { name: 'size too small', body: { prompt: 'p', size: '8x8' }, param: 'size', message: /between 16 and 4096/ },
  { name: 'size not a string', body: { prompt: 'p', size: 720 }, param: 'size', message: /must be a string/ },
  { name: 'tiered size off the table', body: { model: wan, prompt: 'p', size: '1000*1000' }, param: 'size', message: /not a size model wan2.2-t2v-plus offers/ },
  { name: 'tiered tier unknown', body: { model: wan, prompt: 'p', size: '1248P' }, param: 'size', message: /neither/ },
  { name: 'model not a string', body: { prompt: 'p', model: 7 }, param: 'model', message: /must be a string/ },
  { name: 'model unknown', body: { prompt: 'p', model: 'mystery-model' }, status: 404, param: 'model', message: /not served by any video channel/ },
  { name: 'unknown field', body: { prompt: 'p', quality: 'hd' }, param: 'quality', message: /unknown field/ },
  { name: 'metadata not JSON', body: { prompt: 'p', metadata: '{seed: 1' }, param: 'metadata', message: /not valid JSON/ },
  { name: 'metadata a list', body: { prompt: 'p', metadata: [1] }, param: 'metadata', message: /must be a JSON object/ },
  { name: 'metadata unknown key', body: { model: wan, prompt: 'p', metadata: { colour: 'red' } }, param: 'metadata.colour', message: /unknown key/ },
  { name: 'metadata seed as text', body: { prompt: 'p', metadata: { seed: '5' } }, param: 'metadata.seed', message: /integer from 0 to 2147483647/ },
  { name: 'metadata seed negative', body: { prompt: 'p', metadata: { seed: -1 } }, param: 'metadata.seed', message: /integer/ },
  { name: 'metadata seed too large', body: { prompt: 'p', metadata: '{"seed": 2147483648}' }, param: 'metadata.seed', message: /integer/ },
  { name: 'metadata watermark not boolean', body: { model: wan, prompt: 'p', metadata: { watermark: 'yes' } }, param: 'metadata.watermark', message: /true or false/ },
  { name: 'metadata prompt_extend not boolean', body: { model: wan, prompt: 'p', metadata: { prompt_extend: 1 } }, param: 'metadata.prompt_extend', message: /true or false/ },
  { name: 'metadata img_url not http', body: { model: wan, prompt: 'p', metadata: { img_url: 'ftp://x/y.png' } }, param: 'metadata.img_url', message: /http\(s\) URL/ },
  { name: 'metadata first_frame_url not a string', body: { model: wan, prompt: 'p', metadata: { first_frame_url: 3 } }, param: 'metadata.first_frame_url', message: /http\(s\) URL/ },
  { name: 'metadata resolution unknown', body: { model: wan, prompt: 'p', metadata: { resolution: '4K' } }, param: 'metadata.resolution', message: /480P, 720P or 1080P/ },
  {
    name: 'metadata resolution against size',
    body: { model: wan, prompt: 'p', size: '1280*720', metadata: { resolution: '480P' } },
    param: 'metadata.resolution',
    message: /does not match size 1280x720/,
  },
  {
    name: 'metadata last frame alone',
    body: { model: wan, prompt: 'p', metadata: { last_frame_url: 'https://x/b.png' } },
    param: 'metadata.last_frame_url',
    message: /needs metadata.first_frame_url/,
  },
  {
    name: 'metadata image and keyframes',
    body: { model: wan, prompt: 'p', metadata: { img_url: 'https://x/a.png', first_frame_url: 'https://x/b.png' } },
    param: 'metadata.first_frame_url',
    message: /cannot be combined/,
  },
  { name: 'metadata audio on a silent model', body: { model: wan, prompt: 'p', metadata: { audio: true } }, param: 'metadata.audio', message: /does not generate audio/ },
  { name: 'metadata Wan key on a standard model', body: { prompt: 'p', metadata: { img_url: 'https://x/a.png' } }, param: 'metadata.img_url', message: /does not take this option/ },
  { name: 'metadata negative_prompt not a string', body: { model: wan, prompt: 'p', metadata: { negative_prompt: 5 } }, param: 'metadata.negative_prompt', message: /must be a string/ },
  { name: 'input_reference file id', body: { prompt: 'p', input_reference: { file_id: 'file_1' } }, param: 'input_reference.file_id', message: /not supported/ },
  {
    name: 'input_reference address for a standard model',
    body: { prompt: 'p', input_reference: { image_url: 'https://x/a.png' } },
    param: 'input_reference.image_url',
    message: /does not fetch addresses/,
  },
  {
    name: 'input_reference data URL not an image',
    body: { prompt: 'p', input_reference: { image_url: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` } },
    param: 'input_reference.image_url',
    message: /JPEG, PNG or WEBP/,
  },
  { name: 'input_reference of the wrong type', body: { prompt: 'p', input_reference: 5 }, param: 'input_reference', message: /must be an object with image_url/ },
];

const generationCases: Case[] = [
  { name: 'duration and seconds differ', body: { prompt: 'p', duration: 2, seconds: '3' }, param: 'duration', message: /differs from seconds/ },
  { name: 'duration too long', body: { prompt: 'p', duration: 90 }, param: 'duration', message: /from 1 to 60/ },
  { name: 'width without height', body: { prompt: 'p', width: 640 }, param: 'height', message: /is required/ },
  { name: 'width not a number', body: { prompt: 'p', width: 'wide', height: 480 }, param: 'width', message: /whole number/ },
  { name: 'width against size', body: { prompt: 'p', size: '640x480', width: 800, height: 600 }, param: 'width', message: /does not match size 640x480/ },
  { name: 'fps zero', body: { prompt: 'p', fps: 0 }, param: 'fps', message: /from 1 to 60/ },
  { name: 'fps too high', body: { prompt: 'p', fps: 240 }, param: 'fps', message: /from 1 to 60/ },
  { name: 'seed text', body: { prompt: 'p', seed: 'x' }, param: 'seed', message: /integer/ },
  { name: 'seed against metadata', body: { prompt: 'p', seed: 1, metadata: { seed: 2 } }, param: 'seed', message: /differs from metadata.seed/ },
  { name: 'three images', body: { model: wan, prompt: 'p', images: ['https://x/1.png', 'https://x/2.png', 'https://x/3.png'] }, param: 'images.2', message: /at most two/ },
  {
    name: 'two images for a standard model',
    body: { prompt: 'p', images: [dataUrl(pngBytes(4, 4, [1, 2, 3])), dataUrl(pngBytes(4, 4, [3, 2, 1]))] },
    param: 'images.1',
    message: /takes one reference image/,
  },
  { name: 'image not a string', body: { prompt: 'p', image: 5 }, param: 'image', message: /must be a string/ },
  { name: 'images not a list', body: { prompt: 'p', images: 'https://x/1.png' }, param: 'images', message: /must be a list/ },
  { name: 'image address with metadata image', body: { model: wan, prompt: 'p', image: 'https://x/1.png', metadata: { img_url: 'https://x/2.png' } }, param: 'image', message: /cannot be combined/ },
  { name: 'image bad address', body: { model: wan, prompt: 'p', image: 'not a url' }, param: 'image', message: /http\(s\) URL/ },
  { name: 'n above one', body: { prompt: 'p', n: 2 }, param: 'n', message: /only one video/ },
  { name: 'unknown field', body: { prompt: 'p', style: 'noir' }, param: 'style', message: /unknown field/ },
  { name: 'body not an object', body: '[1,2]', param: '', message: /must be a JSON object/ },
];

describe('video request validation', () => {
  let place: Place;
  let gw: TestGateway;
  let http: VideoHttp;

  beforeAll(async () => {
    place = await createPlace('sqlite');
    gw = await place.start({
      config: {
        channels: [{ name: 'sim', type: 'simulator', models: ['sora-*', 'wan*', 'house-*'], settings: { taskSeconds: 30, videoSize: 64 } }],
        // Only the channel above serves: an unknown model is a 404.
        simulator: false,
        keys: [
          { name: 'valid', key: KEY, quota: 100 },
          { name: 'limited', key: LIMITED_KEY, models: ['wan2.5-t2v-preview'] },
          { name: 'poor', key: POOR_KEY, quota: 0.05 },
        ],
        prices: { 'sora-*': { perSecond: 0.1 } },
      },
    });
    http = videoHttp(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it.each(videoCases)('POST /v1/videos refuses: $name', async ({ body, status = 400, param, message }) => {
    const response = await http.post('/v1/videos', body);
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(response.body.error.message).toMatch(message);
  });

  it.each(generationCases)('POST /v1/video/generations refuses: $name', async ({ body, status = 400, param, message }) => {
    const response = await http.post('/v1/video/generations', body);
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body).toMatchObject({ code: null, type: 'invalid_request_error', param });
    expect(response.body.message).toMatch(message);
  });

  it('accepts the size forms of each family and reports them as WxH', async () => {
    const cases: Array<[unknown, string]> = [
      [{ prompt: 'p' }, '720x1280'],
      [{ prompt: 'p', size: '1792x1024' }, '1792x1024'],
      [{ model: wan, prompt: 'p', size: '832*480' }, '832x480'],
      [{ model: wan, prompt: 'p', size: '1088x832' }, '1088x832'],
      [{ model: wan, prompt: 'p', size: '720p' }, '1280x720'],
      [{ model: wan, prompt: 'p', size: '1280P' }, '1280x720'],
      [{ model: wan, prompt: 'p', size: '1920P' }, '1920x1080'],
      [{ model: wan, prompt: 'p', metadata: '{"resolution":"1080P"}' }, '1920x1080'],
      [{ model: wan, prompt: 'p', size: '1080*1920', metadata: { resolution: '1080P' } }, '1080x1920'],
    ];
    for (const [body, size] of cases) {
      const created = await http.post('/v1/videos', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const video = (await http.get(`/v1/videos/${created.body.id}`)).body;
      expect(video.size).toBe(size);
      expect(video.seconds).toBe((body as { model?: string }).model === wan ? '5' : '4');
    }
  });

  it('refuses multipart mistakes by field', async () => {
    const twice = new FormData();
    twice.append('prompt', 'one');
    twice.append('prompt', 'two');
    const doubled = await http.post('/v1/videos', twice);
    expect(doubled.status).toBe(400);
    expect(doubled.body.error).toMatchObject({ param: 'prompt', message: 'prompt: given more than once' });

    const wrongFile = new FormData();
    wrongFile.set('prompt', new Blob(['text']), 'prompt.txt');
    const misplaced = await http.post('/v1/videos', wrongFile);
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.error.message).toMatch(/only input_reference may be a file/);

    const notImage = new FormData();
    notImage.set('prompt', 'p');
    notImage.set('input_reference', new Blob(['plain text']), 'notes.txt');
    const refused = await http.post('/v1/videos', notImage);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'input_reference', message: 'input_reference: must be a JPEG, PNG or WEBP image' });

    const tiered = new FormData();
    tiered.set('model', wan);
    tiered.set('prompt', 'p');
    tiered.set('input_reference', new Blob([pngBytes(4, 4, [9, 9, 9])], { type: 'image/png' }), 'a.png');
    const byUrl = await http.post('/v1/videos', tiered);
    expect(byUrl.status).toBe(400);
    expect(byUrl.body.error.message).toMatch(/takes images by URL: set metadata.img_url/);

    const unknown = new FormData();
    unknown.set('prompt', 'p');
    unknown.set('style', 'noir');
    expect((await http.post('/v1/videos', unknown)).body.error.param).toBe('style');
  });

  it('checks keys, models and balance, and the read parameters', async () => {
    const anonymous = await fetch(`${gw.url}/v1/videos`, { method: 'POST', body: JSON.stringify({ prompt: 'p' }), headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: { message: 'missing API key', type: 'invalid_request_error', param: null, code: null } });
    const wrongKey = await videoHttp(gw.url, 'sk-not-a-key').get('/v1/videos');
    expect(wrongKey.status).toBe(401);

    const limited = await videoHttp(gw.url, LIMITED_KEY).post('/v1/videos', { prompt: 'p', model: 'sora-2' });
    expect(limited.status).toBe(403);
    expect(limited.body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });

    const poor = await videoHttp(gw.url, POOR_KEY).post('/v1/videos', { prompt: 'p', seconds: '4' });
    expect(poor.status).toBe(403);
    expect(poor.body.error.message).toMatch(/insufficient balance/);

    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['order=up', 'order'],
      ['after=123', 'after'],
    ]) {
      const listed = await http.get(`/v1/videos?${query}`);
      expect(listed.status).toBe(400);
      expect(listed.body.error.param).toBe(param);
    }
    const created = await http.post('/v1/videos', { prompt: 'p' });
    const variant = await http.get(`/v1/videos/${created.body.id}/content?variant=poster`);
    expect(variant.status).toBe(400);
    expect(variant.body.error.param).toBe('variant');
    const unknownRoute = await http.get('/v1/videos/1/nothing');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.error.type).toBe('invalid_request_error');
  });
});
