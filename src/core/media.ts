/**
 * Checks on inline media a client sends as base64 (Messages image and
 * document sources, Responses data URLs and file data, Gemini inline data).
 * Bodies can be tens of megabytes, so nothing here decodes the whole
 * payload: the alphabet is one linear regular-expression scan, the decoded
 * size comes from the length, and the image type from the first few bytes.
 */

/** The most bytes one inline media item may decode to (see README, "Limits"). */
export const MAX_INLINE_MEDIA_BYTES = 20 * 1024 * 1024;

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const STANDARD_OR_URL_SAFE = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Bytes the base64 text `data` decodes to (computed from its length). */
export function decodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor(((data.length - padding) * 3) / 4);
}

/**
 * Why `data` is not acceptable base64, or undefined when it is: only the
 * alphabet (URL-safe letters too where the dialect takes them), padding only
 * at the end and only with a whole final quantum, a length that can be
 * base64, and at most MAX_INLINE_MEDIA_BYTES decoded.
 */
export function base64Problem(data: string, options: { urlSafe?: boolean } = {}): string | undefined {
  if (data.length === 0) return 'is empty';
  // The size first: it costs nothing, and an oversized payload need not be scanned.
  if (decodedLength(data) > MAX_INLINE_MEDIA_BYTES) return `decodes to more than ${MAX_INLINE_MEDIA_BYTES / 1024 / 1024} MiB`;
  if (!(options.urlSafe ? STANDARD_OR_URL_SAFE : STANDARD).test(data)) return 'is not valid base64 (a character outside the base64 alphabet)';
  if (data.endsWith('=') ? data.length % 4 !== 0 : data.length % 4 === 1) return 'is not valid base64 (its length is not that of any base64 text)';
  return undefined;
}

/** Image types whose bytes the gateway recognises; `image/jpg` is a common alias of `image/jpeg`. */
const SNIFFABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function canonicalImageType(mediaType: string): string {
  const type = mediaType.trim().toLowerCase();
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

export function isSniffableImageType(mediaType: string): boolean {
  return SNIFFABLE.has(canonicalImageType(mediaType));
}

/** The image type of base64 `data` from its first 12 bytes (PNG, JPEG, GIF, WebP), or undefined. */
export function sniffImageType(data: string): string | undefined {
  // 16 base64 characters are 12 bytes, enough for every signature below.
  const head = Buffer.from(data.slice(0, 16), 'base64');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * Why base64 `data` does not hold an image of the declared type, or
 * undefined when it does (or when the type is one the gateway cannot
 * recognise by its bytes, such as image/heic).
 */
export function imageTypeProblem(data: string, declared: string): string | undefined {
  if (!isSniffableImageType(declared)) return undefined;
  const expected = canonicalImageType(declared);
  const actual = sniffImageType(data);
  if (actual === expected) return undefined;
  if (actual === undefined) return `is not a ${expected} image (its bytes are not a PNG, JPEG, GIF or WebP image)`;
  return `declares ${expected}, but the bytes are a ${actual} image`;
}

/** `data:<type>[;params];base64,<payload>` split into its parts; undefined when `text` is not a base64 data URL. */
export function parseBase64DataUrl(text: string): { mediaType: string; payload: string } | undefined {
  if (!text.startsWith('data:')) return undefined;
  // The header is short; never scan a multi-megabyte payload looking for it.
  const comma = text.indexOf(',', 0);
  if (comma < 0 || comma > 512) return undefined;
  const header = text.slice(5, comma).split(';');
  if (header.at(-1)?.toLowerCase() !== 'base64') return undefined;
  return { mediaType: header[0]!.trim().toLowerCase(), payload: text.slice(comma + 1) };
}
