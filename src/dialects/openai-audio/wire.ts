/**
 * OpenAI audio (`/v1/audio/speech`, `/v1/audio/transcriptions`,
 * `/v1/audio/translations`) as the gateway and its upstreams see it: what
 * the client asked (read once by the family), the body to pass to a server
 * that has the endpoint itself, and what an upstream answered.
 */

export type AudioOperationName = 'speech' | 'transcriptions' | 'translations';

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';
export type TranscriptFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';

export interface SpeechRequest {
  operation: 'speech';
  model: string;
  input: string;
  voice: string;
  responseFormat: SpeechFormat;
  speed: number;
  /** How to speak it (tone, pace, accent), as the client wrote it. */
  instructions?: string;
  /** `sse`: the audio as `speech.audio.delta` events (servers with OpenAI's endpoint only). */
  streamFormat: 'sse' | 'audio';
}

export interface TranscriptionRequest {
  operation: 'transcriptions' | 'translations';
  model: string;
  file: { bytes: Buffer; filename?: string; contentType?: string };
  language?: string;
  /** Text to guide the transcript (names, the previous passage). */
  prompt?: string;
  temperature?: number;
  responseFormat: TranscriptFormat;
  /** `timestamp_granularities[]`: `word`, `segment` (empty when not asked). */
  timestampGranularities?: readonly string[];
  /** Transcript events (`transcript.text.delta`, `transcript.text.done`) as server-sent events. */
  stream: boolean;
}

export type AudioRequest = SpeechRequest | TranscriptionRequest;

/** The client's body for a server that takes it as it is: JSON, or the multipart form re-encoded with the same parts. */
export interface AudioBody {
  withModel(model: string): { contentType: string; bytes: Buffer };
}

/** What billing reads of an answer: seconds of audio, tokens where the upstream reports them. */
export interface AudioUsage {
  seconds?: number;
  inputTokens?: number;
  outputTokens?: number;
}

/** A computing upstream's answer: audio bytes (speech), or a transcript with its timed segments. */
export type AudioResponse =
  | ({ kind: 'speech'; contentType: string; bytes: Buffer } & AudioUsage)
  | ({ kind: 'transcript'; text: string; language: string; duration: number; segments: TranscriptSegment[] } & AudioUsage);

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** A server's answer on its way to the client: its bytes as they come, and what billing reads of them once they ended. */
export interface AudioPassThroughResult {
  status: number;
  contentType: string;
  chunks: AsyncIterable<Uint8Array>;
  read(): AudioUsage;
}

/** Reads a transcription answer's usage: `usage` (tokens, or `{ type: 'duration', seconds }`), or verbose_json's `duration`. */
export function transcriptUsage(answer: unknown): AudioUsage {
  if (typeof answer !== 'object' || answer === null) return {};
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const usage = (answer as { usage?: Record<string, unknown> }).usage;
  const out: AudioUsage = {};
  if (typeof usage === 'object' && usage !== null) {
    out.inputTokens = count(usage.input_tokens);
    out.outputTokens = count(usage.output_tokens);
    out.seconds = count(usage.seconds);
  }
  out.seconds ??= count((answer as { duration?: unknown }).duration);
  return out;
}
