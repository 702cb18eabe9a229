/**
 * Speech asked as `stream_format: sse`, streamed: one
 * `streamGenerateContent?alt=sse` with the body `generateContent` would get
 * (audio.ts), each chunk's inline PCM written on as a `speech.audio.delta`
 * and the usage of the last chunk that reports it as `speech.audio.done`.
 * The first audio is waited for before the answer is handed on, so a model
 * that makes none fails over as a whole answer does; after that a broken
 * stream is cut. The deltas are OpenAI's `pcm` (24 kHz 16-bit mono, what the
 * models make); a WAV has no place in a stream of deltas, so sse is refused
 * for other formats before routing.
 */
import { GatewayError } from '../../../core/errors.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import { speechDeltaFrame, speechDoneFrame } from '../../../dialects/openai-audio/speech-events.js';
import { PCM_BYTES_PER_SECOND } from '../../../dialects/openai-audio/wav.js';
import type { AudioPassThroughResult } from '../../../dialects/openai-audio/wire.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, type RequestHeaders } from '../../endpoint.js';
import { requestOk } from '../../http.js';
import { readSse, type SseEvent } from '../../sse.js';
import type { UpstreamCall } from '../../types.js';
import { answerTokens, emptyReason, type AudioAnswer } from './audio-call.js';
import type { GenerateEndpoint } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GenerateSettings } from './settings.js';

interface StreamState {
  bytes: number;
  usage?: AudioAnswer['usageMetadata'];
  last?: AudioAnswer;
}

/** `body` is the speech request as `generateContent` gets it (audio.ts `speechBody`). */
export async function speakStream(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, body: object, call: UpstreamCall): Promise<AudioPassThroughResult> {
  const sent = translatedBody(endpoint, body, call, 'streamGenerateContent', headers);
  const res = await requestOk(callExchange(call, endpoint.url(call, 'streamGenerateContent?alt=sse'), headers, sent, throwGeminiStatus));
  const events = readSse(res.body, limitsOf(call));
  const state: StreamState = { bytes: 0 };
  let first: Buffer | undefined;
  try {
    while (!first) {
      const next = await events.next();
      if (next.done) throw new GatewayError('upstream_error', `upstream answered a speech request with no audio${emptyReason(state.last ?? {})}; is the model a speech model?`);
      first = audioOf(next.value, state);
    }
  } catch (error) {
    await events.return(undefined);
    throw error;
  }
  return {
    status: 200,
    contentType: 'text/event-stream; charset=utf-8',
    chunks: frames(first, events, state),
    read: () => ({ seconds: state.bytes / PCM_BYTES_PER_SECOND, ...answerTokens({ usageMetadata: state.usage }) }),
  };
}

async function* frames(first: Buffer, events: AsyncGenerator<SseEvent>, state: StreamState): AsyncGenerator<Uint8Array> {
  try {
    yield Buffer.from(speechDeltaFrame(first));
    for (let next = await events.next(); !next.done; next = await events.next()) {
      const audio = audioOf(next.value, state);
      if (audio) yield Buffer.from(speechDeltaFrame(audio));
    }
    const tokens = answerTokens({ usageMetadata: state.usage });
    yield Buffer.from(speechDoneFrame(tokens.inputTokens, tokens.outputTokens));
  } finally {
    await events.return(undefined);
  }
}

/** The PCM of one chunk (undefined when it holds none), its usage kept. */
function audioOf(event: SseEvent, state: StreamState): Buffer | undefined {
  let answer: AudioAnswer;
  try {
    answer = JSON.parse(event.data) as AudioAnswer;
  } catch {
    throw new GatewayError('upstream_error', 'upstream sent a speech stream chunk that is not JSON', { retryable: true });
  }
  state.last = answer;
  if (answer.usageMetadata) state.usage = answer.usageMetadata;
  const parts = answer.candidates?.[0]?.content?.parts ?? [];
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const data = part.inlineData?.data;
    const mimeType = part.inlineData?.mimeType;
    if (part.thought || typeof data !== 'string' || !mimeType?.startsWith('audio/')) continue;
    if (!/^audio\/(l16|pcm)\b/i.test(mimeType)) throw new GatewayError('upstream_error', `upstream streamed speech as ${mimeType}, not the PCM the gateway reads`);
    const rate = Number(/rate=(\d+)/.exec(mimeType)?.[1] ?? 24_000);
    if (rate * 2 !== PCM_BYTES_PER_SECOND) throw new GatewayError('upstream_error', `upstream streamed speech at ${rate} Hz; pcm is 24 kHz`);
    pieces.push(Buffer.from(data, 'base64'));
  }
  const audio = Buffer.concat(pieces);
  state.bytes += audio.length;
  return audio.length > 0 ? audio : undefined;
}
