/**
 * Inline media fields of the OpenAI dialects (Responses `input_image` and
 * `input_file`, Chat Completions `image_url` and `file` parts): an image URL
 * is http(s) or a base64 data URL holding the image it names; file data is
 * base64, bare or as a data URL.
 */
import { z } from 'zod';
import { base64Problem, imageTypeProblem, isSniffableImageType, parseBase64DataUrl } from '../../core/media.js';

export const httpUrl = /^https?:\/\/\S+$/i;

/** Why an `input_image.image_url` is not acceptable, or undefined: an http(s) URL, or a base64 data URL holding the image it names. */
function imageUrlProblem(value: string): string | undefined {
  if (httpUrl.test(value)) return undefined;
  const parsed = parseBase64DataUrl(value);
  if (!parsed) return 'must be an http(s) URL or a base64 data URL';
  if (!isSniffableImageType(parsed.mediaType)) {
    return `a data URL of type "${parsed.mediaType.slice(0, 100)}" is not an image; use image/png, image/jpeg, image/gif or image/webp`;
  }
  const problem = base64Problem(parsed.payload) ?? imageTypeProblem(parsed.payload, parsed.mediaType);
  return problem && `the data URL ${problem}`;
}

/** Why `input_file.file_data` is not acceptable: base64, bare or as a data URL. */
function fileDataProblem(value: string): string | undefined {
  const parsed = value.startsWith('data:') ? parseBase64DataUrl(value) : { payload: value };
  if (!parsed) return 'must be base64 or a base64 data URL';
  const problem = base64Problem(parsed.payload);
  return problem && `${value.startsWith('data:') ? 'the data URL ' : ''}${problem}`;
}

/** A string refused, with the reason, when `problemOf` finds a problem. */
export const checked = (problemOf: (value: string) => string | undefined) =>
  z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const imageUrlSchema = checked(imageUrlProblem);
export const fileDataSchema = checked(fileDataProblem);

/** `data:<type>;base64,<data>` → its parts; undefined for anything else. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  if (!header.endsWith(';base64')) return undefined;
  const mediaType = header.split(';', 1)[0] || 'application/octet-stream';
  return { mediaType, data: url.slice(comma + 1) };
}
