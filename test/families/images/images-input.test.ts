/** Input images: formats read from the bytes, data URL rules, size and animation limits. */
import { describe, expect, it } from 'vitest';
import { decodeImage, gifFrameCount, MAX_IMAGE_BYTES } from '../../../src/families/images/images-input.js';
import { ANIMATED_GIF_DATA_URL, JPEG_DATA_URL, pngDataUrl, STATIC_GIF_DATA_URL, WEBP_DATA_URL } from './support.js';

describe('input images', () => {
  it.each([
    ['PNG', pngDataUrl(1, 2, 3), 'image/png'],
    ['JPEG', JPEG_DATA_URL, 'image/jpeg'],
    ['static GIF', STATIC_GIF_DATA_URL, 'image/gif'],
    ['WEBP', WEBP_DATA_URL, 'image/webp'],
  ])('accepts %s', (_name, dataUrl, type) => {
    const image = decodeImage(dataUrl, 'base64');
    expect(image.contentType).toBe(type);
    expect(image.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(image.dataUrl).toBe(dataUrl);
  });

  it('accepts bare base64 and gives it a data URL', () => {
    const bare = pngDataUrl(9, 9, 9).split(',')[1];
    const image = decodeImage(bare, 'base64');
    expect(image.contentType).toBe('image/png');
    expect(image.dataUrl).toBe(`data:image/png;base64,${bare}`);
  });

  it('reads the format from the bytes, not the prefix', () => {
    const mislabelled = JPEG_DATA_URL.replace('image/jpeg', 'image/png');
    expect(decodeImage(mislabelled, 'x').contentType).toBe('image/jpeg');
  });

  it.each([
    [42, /must be a base64 image/],
    ['', /must be a base64 image/],
    ['data:text/plain;base64,aGk=', /unsupported image type "text\/plain"/],
    ['data:image/png,rawtext', /must be base64 encoded/],
    ['data:image/png;base64,!!!', /not valid base64/],
    ['data:image/png;base64,aGVsbG8gd29ybGQ=', /not a JPEG, PNG, GIF or WEBP/],
    [ANIMATED_GIF_DATA_URL, /animated GIFs/],
    [`data:image/png;base64,${Buffer.alloc(MAX_IMAGE_BYTES + 1).toString('base64')}`, /larger than 4 MB/],
  ])('refuses %#', (value, message) => {
    expect(() => decodeImage(value, 'base64Array.0')).toThrow(message);
    try {
      decodeImage(value, 'base64Array.0');
    } catch (error) {
      expect((error as Error).message.startsWith('base64Array.0: ')).toBe(true);
    }
  });

  it('counts GIF frames', () => {
    const bytes = (url: string) => Buffer.from(url.split(',')[1], 'base64');
    expect(gifFrameCount(bytes(STATIC_GIF_DATA_URL))).toBe(1);
    expect(gifFrameCount(bytes(ANIMATED_GIF_DATA_URL))).toBe(2);
  });
});
