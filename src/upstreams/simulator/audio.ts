/**
 * Simulated audio. Speech is a quiet 440 Hz tone as long as the input would
 * take to read (about 15 characters a second, divided by `speed`), as a WAV
 * or as OpenAI's raw `pcm` (24 kHz, 16-bit, mono); the simulator encodes no
 * mp3, opus, aac or flac, and says so rather than label WAV bytes as them,
 * nor `stream_format: sse` events. A
 * transcription (or translation) is text derived from the file: its length
 * (a WAV's own duration, else its size read as 16 kB a second) and a digest
 * of its bytes, cut into cues of at most five seconds.
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import { PCM_BYTES_PER_SECOND, toneWav, wavSeconds } from '../../dialects/openai-audio/wav.js';
import type { AudioRequest, AudioResponse, SpeechRequest, TranscriptionRequest, TranscriptSegment } from '../../dialects/openai-audio/wire.js';
import type { UpstreamCall } from '../types.js';
import { simulatedCall } from './plain-call.js';

const CHARS_PER_SECOND = 15;
const CUE_SECONDS = 5;
/** An upload that is no WAV is read as this many bytes a second (128 kbit/s, a common mp3 rate). */
const BYTES_PER_SECOND_GUESS = 16_000;

export async function simulateAudio(request: AudioRequest, call: UpstreamCall): Promise<AudioResponse> {
  await simulatedCall(call);
  return request.operation === 'speech' ? speak(request) : transcribe(request);
}

/** What the simulator cannot make, decided before routing (the pipeline skips it, or answers the 400 when no channel can). */
export function simulatedAudioRefusal(request: AudioRequest): GatewayError | undefined {
  if (request.operation !== 'speech') return undefined;
  if (request.responseFormat !== 'wav' && request.responseFormat !== 'pcm') {
    return new GatewayError('invalid_request', `Invalid 'response_format': the simulator makes wav and pcm audio only, not ${request.responseFormat}`, { param: 'response_format' });
  }
  if (request.streamFormat === 'sse') {
    return new GatewayError('invalid_request', "Invalid 'stream_format': the simulator answers the audio's bytes only; leave stream_format unset or audio", { param: 'stream_format' });
  }
  return undefined;
}

function speak(request: SpeechRequest): AudioResponse {
  const refused = simulatedAudioRefusal(request);
  if (refused) throw refused;
  const seconds = Math.round((Math.max(0.5, request.input.length / CHARS_PER_SECOND) / request.speed) * 1000) / 1000;
  const wav = toneWav(seconds);
  if (request.responseFormat === 'wav') return { kind: 'speech', contentType: 'audio/wav', bytes: wav, seconds };
  // The WAV's samples are the pcm answer: 24 kHz 16-bit mono, OpenAI's pcm.
  const pcm = wav.subarray(44);
  return { kind: 'speech', contentType: 'audio/pcm', bytes: pcm, seconds: pcm.length / PCM_BYTES_PER_SECOND };
}

function transcribe(request: TranscriptionRequest): AudioResponse {
  const bytes = request.file.bytes;
  const duration = Math.round((wavSeconds(bytes) ?? bytes.length / BYTES_PER_SECOND_GUESS) * 100) / 100;
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  const segments: TranscriptSegment[] = [];
  for (let start = 0, index = 1; start < duration || segments.length === 0; start += CUE_SECONDS, index++) {
    const end = Math.min(duration, start + CUE_SECONDS);
    segments.push({ start, end, text: `Simulated cue ${index} of audio ${digest}.` });
  }
  const text = `Simulated ${request.operation === 'translations' ? 'translation' : 'transcript'} of ${duration} seconds of audio ${digest}: ${segments.map((cue) => cue.text).join(' ')}`;
  const language = request.operation === 'translations' ? 'english' : (request.language ?? 'english');
  return { kind: 'transcript', text, language, duration, segments, seconds: duration };
}
