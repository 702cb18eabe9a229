/**
 * OpenAI transcriptions and translations translated for the
 * content-generation dialect's audio-understanding models: one
 * `generateContent` with the file as inline data (its type from the form,
 * else its name, else its first bytes: the WAV, MP3, AIFF, AAC, OGG and FLAC
 * the models take) and a fixed instruction to transcribe it verbatim (a
 * translation: to give its English), the client's `language` and `prompt`
 * added as context. The answer's text is the transcript, billed by the
 * tokens the answer reports; `json` and `text` (and their stream) are
 * served. The models give no reliable timestamps, so `srt`, `vtt`,
 * `verbose_json` and `timestamp_granularities` are refused before routing
 * rather than made up, as are a file of another type and one over the
 * inline bound, each naming its field.
 */
import { GatewayError } from '../../../core/errors.js';
import { wavSeconds } from '../../../dialects/openai-audio/wav.js';
import type { AudioResponse, TranscriptionRequest } from '../../../dialects/openai-audio/wire.js';
import type { RequestHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import { answerTokens, emptyReason, generateOnce } from './audio-call.js';
import type { GenerateEndpoint } from './endpoint.js';
import type { GenerateSettings } from './settings.js';

/**
 * The largest file sent inline: Gemini bounds a request at 20 MB, and the
 * file goes as base64 (4 bytes for 3), with room left for the instruction.
 */
export const MAX_INLINE_AUDIO_BYTES = 14 * 1024 * 1024;

const TRANSCRIBE = 'Transcribe the speech in this audio verbatim, in the language it is spoken. Answer with the transcript text only: no timestamps, no speaker labels, no commentary.';
const TRANSLATE = 'Translate the speech in this audio into English. Answer with the English translation only: no timestamps, no speaker labels, no commentary.';

/** Media types the models take, by the names clients and browsers give them. */
const TYPES: Readonly<Record<string, string>> = {
  'audio/wav': 'audio/wav',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mp3',
  'audio/mpeg': 'audio/mp3',
  'audio/mpeg3': 'audio/mp3',
  'audio/aiff': 'audio/aiff',
  'audio/x-aiff': 'audio/aiff',
  'audio/aac': 'audio/aac',
  'audio/x-aac': 'audio/aac',
  'audio/ogg': 'audio/ogg',
  'application/ogg': 'audio/ogg',
  'audio/flac': 'audio/flac',
  'audio/x-flac': 'audio/flac',
};

const EXTENSIONS: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  flac: 'audio/flac',
};

const invalid = (param: string, message: string) => new GatewayError('invalid_request', `Invalid '${param}': ${message}`, { param });

export function transcriptionRefusal(request: TranscriptionRequest): GatewayError | undefined {
  if (request.responseFormat !== 'json' && request.responseFormat !== 'text') {
    return invalid('response_format', `Gemini models give no reliable timestamps, so they answer json and text, not ${request.responseFormat}`);
  }
  if (request.timestampGranularities && request.timestampGranularities.length > 0) {
    return invalid('timestamp_granularities', 'Gemini models give no reliable timestamps; leave timestamp_granularities unset');
  }
  if (!audioType(request.file)) return invalid('file', 'Gemini models take wav, mp3, aiff, aac, ogg and flac audio; the file is none of them');
  if (request.file.bytes.length > MAX_INLINE_AUDIO_BYTES) return invalid('file', `Gemini models take audio files of at most ${MAX_INLINE_AUDIO_BYTES} bytes inline`);
  return undefined;
}

/** The file's media type as the models name it: its form type, else its name's extension, else its first bytes. */
export function audioType(file: TranscriptionRequest['file']): string | undefined {
  const declared = file.contentType?.split(';')[0].trim().toLowerCase();
  if (declared && TYPES[declared]) return TYPES[declared];
  const extension = file.filename?.toLowerCase().split('.').at(-1);
  if (extension && EXTENSIONS[extension]) return EXTENSIONS[extension];
  return sniffed(file.bytes);
}

function sniffed(bytes: Buffer): string | undefined {
  const tag = (start: number, end: number) => bytes.toString('latin1', start, end);
  if (tag(0, 4) === 'RIFF' && tag(8, 12) === 'WAVE') return 'audio/wav';
  if (tag(0, 4) === 'fLaC') return 'audio/flac';
  if (tag(0, 4) === 'OggS') return 'audio/ogg';
  if (tag(0, 4) === 'FORM' && (tag(8, 12) === 'AIFF' || tag(8, 12) === 'AIFC')) return 'audio/aiff';
  if (tag(0, 3) === 'ID3') return 'audio/mp3';
  // A frame sync: ADTS (AAC) has layer bits 00, MPEG audio layer III does not.
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) return (bytes[1] & 0x06) === 0 ? 'audio/aac' : 'audio/mp3';
  return undefined;
}

export function transcriptionBody(request: TranscriptionRequest): Record<string, unknown> {
  const lines = [request.operation === 'translations' ? TRANSLATE : TRANSCRIBE];
  if (request.language) lines.push(`The speech is in the language with ISO 639-1 code "${request.language}".`);
  if (request.prompt) lines.push(`Context for the transcript (names, spellings, the text before it); do not transcribe it:\n${request.prompt}`);
  const body: Record<string, unknown> = {
    contents: [{ role: 'user', parts: [{ inlineData: { mimeType: audioType(request.file), data: request.file.bytes.toString('base64') } }, { text: lines.join('\n\n') }] }],
  };
  if (request.temperature !== undefined) body.generationConfig = { temperature: request.temperature };
  return body;
}

export async function transcribe(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: TranscriptionRequest, call: UpstreamCall): Promise<AudioResponse> {
  const answer = await generateOnce(endpoint, headers, transcriptionBody(request), call);
  const parts = answer.candidates?.[0]?.content?.parts;
  if (!parts) throw new GatewayError('upstream_error', `upstream answered a transcription request with no text${emptyReason(answer)}`);
  const text = parts
    .filter((part) => !part.thought && typeof part.text === 'string')
    .map((part) => part.text)
    .join('')
    .trim();
  const language = request.operation === 'translations' ? 'english' : (request.language ?? '');
  // Billed by tokens: the seconds are only a WAV's own, which the gateway reads itself.
  return { kind: 'transcript', text, language, duration: wavSeconds(request.file.bytes) ?? 0, segments: [], ...answerTokens(answer) };
}
