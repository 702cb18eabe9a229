/** Enum values and small value schemas of the content-generation request, to the spec. */
import { z } from 'zod';
import { asIsWhen } from '../../core/accept-as-is.js';

/** An enum field; the message lists the accepted values, as the service's own errors do. */
export function protoEnum<const T extends readonly [string, ...string[]]>(values: T, options: { caseInsensitive?: boolean } = {}) {
  const message = `must be one of ${values.join(', ')}`;
  const strict = z.enum(values, { error: (issue) => `${JSON.stringify(issue.input)} is not a valid value; ${message}` });
  if (!options.caseInsensitive) return strict;
  const upperCased = z
    .string({ error: message })
    .transform((value) => value.toUpperCase())
    .pipe(strict);
  return asIsWhen(upperCased, (value) => typeof value === 'string' && value === value.toUpperCase());
}

/** Proto JSON writes 64-bit integers as strings and accepts either form for every integer. */
export function protoInt(bounds: { min?: number; max?: number } = {}) {
  let int = z.int({ error: 'must be an integer' });
  if (bounds.min !== undefined) int = int.gte(bounds.min, { error: `must be at least ${bounds.min}` });
  if (bounds.max !== undefined) int = int.lte(bounds.max, { error: `must be at most ${bounds.max}` });
  const fromString = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);
  return asIsWhen(z.preprocess(fromString, int), (value) => typeof value !== 'string');
}

/** zod 4 numbers refuse Infinity and NaN already. */
export const finiteNumber = () => z.number({ error: 'must be a number' });

export const harmCategories = ['HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT', 'HARM_CATEGORY_CIVIC_INTEGRITY'] as const;

export const harmBlockThresholds = ['HARM_BLOCK_THRESHOLD_UNSPECIFIED', 'BLOCK_LOW_AND_ABOVE', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_ONLY_HIGH', 'BLOCK_NONE', 'OFF'] as const;

/** Thresholds that block nothing: any upstream can honour them. */
export const permissiveThresholds: ReadonlySet<string> = new Set(['HARM_BLOCK_THRESHOLD_UNSPECIFIED', 'BLOCK_NONE', 'OFF']);

/** `VALIDATED` (the model decides, arguments constrained to the schema) is sent by current clients. */
export const functionCallingModes = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;

export const responseMimeTypes = ['text/plain', 'application/json', 'text/x.enum'] as const;

export const responseModalities = ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'AUDIO'] as const;

export const mediaResolutions = ['MEDIA_RESOLUTION_UNSPECIFIED', 'MEDIA_RESOLUTION_LOW', 'MEDIA_RESOLUTION_MEDIUM', 'MEDIA_RESOLUTION_HIGH'] as const;

export const thinkingLevels = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'XHIGH'] as const;

export const schemaTypes = ['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'] as const;

export const codeLanguages = ['LANGUAGE_UNSPECIFIED', 'PYTHON'] as const;

export const codeOutcomes = ['OUTCOME_UNSPECIFIED', 'OUTCOME_OK', 'OUTCOME_FAILED', 'OUTCOME_DEADLINE_EXCEEDED'] as const;

export const speechLanguageCodes = ['zh-CN', 'en-US', 'ja-JP', 'ko-KR', 'fr-FR', 'de-DE', 'es-ES', 'pt-BR', 'hi-IN', 'ar-XA', 'it-IT', 'tr-TR', 'vi-VN', 'th-TH', 'ru-RU', 'pl-PL', 'nl-NL'] as const;

export const contentRoles = ['user', 'model', 'function', 'tool'] as const;

/** Input media the service reads (spec: images, audio, video, documents), by MIME type. */
const inputMediaTypes: Record<string, 'image' | 'audio' | 'video' | 'document'> = {
  'image/jpeg': 'image',
  'image/jpg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'image/heic': 'image',
  'image/heif': 'image',
  'audio/wav': 'audio',
  'audio/x-wav': 'audio',
  'audio/wave': 'audio',
  'audio/mp3': 'audio',
  'audio/mpeg': 'audio',
  'audio/aiff': 'audio',
  'audio/x-aiff': 'audio',
  'audio/aac': 'audio',
  'audio/ogg': 'audio',
  'audio/flac': 'audio',
  'audio/x-flac': 'audio',
  'video/mp4': 'video',
  'video/mpeg': 'video',
  'video/mov': 'video',
  'video/quicktime': 'video',
  'video/avi': 'video',
  'video/x-msvideo': 'video',
  'video/x-flv': 'video',
  'video/mpg': 'video',
  'video/webm': 'video',
  'video/wmv': 'video',
  'video/x-ms-wmv': 'video',
  'video/3gpp': 'video',
  'application/pdf': 'document',
};

export type MediaKind = 'image' | 'audio' | 'video' | 'document' | 'text';

/** The kind of an accepted input MIME type (text/* documents included), or undefined when unsupported. */
export function mediaKind(mimeType: string): MediaKind | undefined {
  const type = mimeType.split(';', 1)[0].trim().toLowerCase();
  return inputMediaTypes[type] ?? (type.startsWith('text/') ? 'text' : undefined);
}

/** Why a candidate ended (the spec's FinishReason). */
export const finishReasons = [
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'IMAGE_RECITATION',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'MISSING_THOUGHT_SIGNATURE',
  'MALFORMED_RESPONSE',
] as const;

/** Why a prompt was blocked before any candidate (the spec's BlockReason). */
export const blockReasons = ['BLOCK_REASON_UNSPECIFIED', 'SAFETY', 'OTHER', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY'] as const;

/** Modalities of the per-modality token counts. */
export const tokenModalities = ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT'] as const;

export const harmProbabilities = ['HARM_PROBABILITY_UNSPECIFIED', 'NEGLIGIBLE', 'LOW', 'MEDIUM', 'HIGH'] as const;
