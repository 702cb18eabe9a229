/**
 * OpenAI's images answer from the images a computing upstream made:
 * `{ created, data: [{ b64_json | url, revised_prompt? }], usage? }`. A
 * `url` answer keeps the upstream's URL where it gave one; else the gateway
 * stores the image in its media store (the task media store) and links it
 * at `/ig/image/<key>`, an unguessable address served like task images until
 * the answer expires (expiry.ts).
 */
import type { MediaStore } from '../../tasks/media.js';
import type { ImageRequest, ImageResponse, ImagesAnswer } from '../../dialects/openai-images/wire.js';

const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** How stored `url` answers expire: after `ms` (0: kept), each key noted for the sweeper. */
export interface UrlExpiry {
  ms: number;
  note(key: string, expiresAt: number): Promise<void>;
}

export async function renderImages(response: ImageResponse, request: ImageRequest, media: MediaStore, publicBase: string, expiry: UrlExpiry): Promise<ImagesAnswer> {
  const expiresAt = expiry.ms > 0 ? Date.now() + expiry.ms : undefined;
  const data = await Promise.all(
    response.images.map(async (image) => {
      const revised = image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt };
      if (request.responseFormat === 'url') {
        if (image.url) return { url: image.url, ...revised };
        const contentType = sniffedType(image.bytes) ?? CONTENT_TYPES[request.outputFormat];
        const ref = await media.put({ bytes: image.bytes ?? Buffer.alloc(0), contentType, ...(expiresAt === undefined ? {} : { expiresAt }) });
        if (expiresAt !== undefined) await expiry.note(ref.key, expiresAt);
        return { url: `${publicBase}/ig/image/${ref.key}`, ...revised };
      }
      return { b64_json: (image.bytes ?? Buffer.alloc(0)).toString('base64'), ...revised };
    }),
  );
  const answer: ImagesAnswer = { created: Math.floor(Date.now() / 1000), data };
  if (response.inputTokens !== undefined || response.outputTokens !== undefined) {
    const input = response.inputTokens ?? 0;
    const output = response.outputTokens ?? 0;
    answer.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }
  return answer;
}

/** The image's own type by its first bytes (a PNG, whatever format was asked, is stored as one). */
function sniffedType(bytes: Buffer | undefined): string | undefined {
  if (!bytes || bytes.length < 4) return undefined;
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF') return 'image/webp';
  return undefined;
}
