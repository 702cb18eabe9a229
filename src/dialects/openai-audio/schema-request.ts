/**
 * The fields of OpenAI's audio requests the gateway reads: speech's JSON
 * body, and a transcription's or translation's text fields (its form's,
 * `temperature` parsed first). Every other field is kept for a native
 * upstream as it is.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

/** OpenAI's bound on the text to speak. */
export const MAX_SPEECH_CHARS = 4096;

/** OpenAI's bound on an uploaded audio file. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

const model = () => z.string({ error: 'must be a string' }).min(1, { error: 'field required' }).refine(isWellFormedModelName, { error: modelNameIssue });

export const speechRequestSchema = builtOnce(() =>
  z.looseObject({
    model: model(),
    input: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(MAX_SPEECH_CHARS),
    voice: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })], { error: 'must be a voice name or { id }' }),
    response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'], { error: 'must be mp3, opus, aac, flac, wav or pcm' }).nullable().optional(),
    speed: z.number({ error: 'must be a number' }).min(0.25).max(4).nullable().optional(),
    instructions: z.string({ error: 'must be a string' }).max(MAX_SPEECH_CHARS).nullable().optional(),
    stream_format: z.enum(['sse', 'audio'], { error: 'must be sse or audio' }).nullable().optional(),
  }),
);

export const transcriptionFieldsSchema = builtOnce(() =>
  z.looseObject({
    model: model(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, { error: 'must be an ISO-639-1 code such as en' })
      .optional(),
    prompt: z.string().optional(),
    response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt'], { error: 'must be json, text, srt, verbose_json or vtt' }).optional(),
    temperature: z.number({ error: 'must be a number' }).min(0).max(1).optional(),
    stream: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  }),
);
