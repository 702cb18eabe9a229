/**
 * OpenAI's transcription answer from a computing upstream's transcript, in
 * the format asked: `json` (`{ text, usage }`, the usage in tokens where the
 * upstream reported them, else in seconds), `text`, `verbose_json`
 * (language, duration, segments), and `srt`/`vtt` cues from the segments.
 */
import type { AudioResponse, TranscriptFormat, TranscriptSegment } from '../../dialects/openai-audio/wire.js';

type Transcript = Extract<AudioResponse, { kind: 'transcript' }>;

const WORDS_PER_DELTA = 4;

/** A streamed transcription: a delta per few words, then the whole text with its usage, as OpenAI's `transcript.text.*` events. */
export function renderTranscriptEvents(transcript: Transcript): { contentType: string; body: string } {
  const event = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
  const words = transcript.text.split(' ');
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) {
    deltas.push(event({ type: 'transcript.text.delta', delta: `${i === 0 ? '' : ' '}${words.slice(i, i + WORDS_PER_DELTA).join(' ')}` }));
  }
  const usage = usageOf(transcript);
  return { contentType: 'text/event-stream', body: `${deltas.join('')}${event({ type: 'transcript.text.done', text: transcript.text, usage })}` };
}

export function renderTranscript(transcript: Transcript, format: TranscriptFormat, operation: 'transcriptions' | 'translations'): { contentType: string; body: string } {
  if (format === 'text') return { contentType: 'text/plain; charset=utf-8', body: `${transcript.text}\n` };
  if (format === 'srt')
    return { contentType: 'text/plain; charset=utf-8', body: transcript.segments.map((cue, i) => `${i + 1}\n${stamp(cue.start, ',')} --> ${stamp(cue.end, ',')}\n${cue.text}\n`).join('\n') };
  if (format === 'vtt')
    return { contentType: 'text/vtt; charset=utf-8', body: `WEBVTT\n\n${transcript.segments.map((cue) => `${stamp(cue.start, '.')} --> ${stamp(cue.end, '.')}\n${cue.text}\n`).join('\n')}` };
  if (format === 'verbose_json') {
    const answer = {
      task: operation === 'translations' ? 'translate' : 'transcribe',
      language: transcript.language,
      duration: transcript.duration,
      text: transcript.text,
      segments: transcript.segments.map((cue, id) => segment(cue, id)),
      usage: { type: 'duration', seconds: Math.ceil(transcript.duration) },
    };
    return { contentType: 'application/json', body: JSON.stringify(answer) };
  }
  return { contentType: 'application/json', body: JSON.stringify({ text: transcript.text, usage: usageOf(transcript) }) };
}

/** The tokens where the upstream reported them (as OpenAI's token-billed models answer), else the seconds. */
function usageOf(transcript: Transcript) {
  if (transcript.inputTokens === undefined) return { type: 'duration', seconds: Math.ceil(transcript.duration) };
  const output = transcript.outputTokens ?? 0;
  return { type: 'tokens', input_tokens: transcript.inputTokens, output_tokens: output, total_tokens: transcript.inputTokens + output };
}

function segment(cue: TranscriptSegment, id: number) {
  return { id, seek: 0, start: cue.start, end: cue.end, text: cue.text, tokens: [], temperature: 0, avg_logprob: 0, compression_ratio: 1, no_speech_prob: 0 };
}

/** `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT). */
function stamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}
