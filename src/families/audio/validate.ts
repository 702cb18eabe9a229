/**
 * Reads an audio request into the internal one: speech's JSON body, or a
 * transcription's (or translation's) form, its text fields checked by the
 * same kind of schema and its `file` required. A bad field is a 400 naming it.
 */
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { issueError } from '../../dialects/openai/validate-issue.js';
import { speechRequestSchema, transcriptionFieldsSchema } from '../../dialects/openai-audio/schema-request.js';
import type { SpeechRequest, TranscriptionRequest } from '../../dialects/openai-audio/wire.js';
import type { AudioForm } from './multipart.js';

export function parseSpeechBody(body: unknown): SpeechRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GatewayError('invalid_request', 'request body must be a JSON object');
  const result = parseAsIs(speechRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const data = result.data;
  return {
    operation: 'speech',
    model: data.model,
    input: data.input,
    voice: typeof data.voice === 'string' ? data.voice : data.voice.id,
    responseFormat: data.response_format ?? 'mp3',
    speed: data.speed ?? 1,
    ...(typeof data.instructions === 'string' && data.instructions.trim() !== '' ? { instructions: data.instructions } : {}),
    streamFormat: data.stream_format ?? 'audio',
  };
}

export function parseTranscriptionForm(operation: 'transcriptions' | 'translations', form: AudioForm): TranscriptionRequest {
  const single: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(form.fields)) if (!name.endsWith('[]')) single[name] = values[0];
  const temperature = form.fields.temperature?.[0];
  if (temperature !== undefined && temperature.trim() !== '' && Number.isFinite(Number(temperature))) single.temperature = Number(temperature);
  const result = parseAsIs(transcriptionFieldsSchema(), single, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  if (!form.file || form.file.bytes.length === 0) throw new GatewayError('invalid_request', "Invalid 'file': field required (an audio file)", { param: 'file' });
  const stream = result.data.stream === 'true';
  // OpenAI streams transcriptions only, as json or text events; whisper-1 and translations answer whole.
  if (stream && operation === 'translations') throw new GatewayError('invalid_request', "Invalid 'stream': translations are not streamed; leave stream unset", { param: 'stream' });
  const responseFormat = result.data.response_format ?? 'json';
  if (stream && responseFormat !== 'json' && responseFormat !== 'text') {
    throw new GatewayError('invalid_request', "Invalid 'response_format': a streamed transcription is json or text", { param: 'response_format' });
  }
  const data = result.data;
  const granularities = form.fields['timestamp_granularities[]'] ?? form.fields.timestamp_granularities ?? [];
  return {
    operation,
    model: data.model,
    file: form.file,
    language: data.language,
    ...(data.prompt ? { prompt: data.prompt } : {}),
    ...(data.temperature !== undefined ? { temperature: data.temperature } : {}),
    responseFormat,
    ...(granularities.length > 0 ? { timestampGranularities: granularities } : {}),
    stream,
  };
}
