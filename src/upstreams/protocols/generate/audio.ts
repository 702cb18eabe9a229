/**
 * OpenAI audio requests translated for the content-generation dialect's
 * models, where its endpoint says it may (`makesAudio`). Speech goes to a
 * speech model (`gemini-2.5-flash-preview-tts`, …): one `generateContent`
 * with the input as text (the client's `instructions` before it as a style
 * direction, `Say cheerfully: …` as Google's guide writes it),
 * `responseModalities: ['AUDIO']` and the voice (voices.ts). The answer's
 * inline audio is 16-bit mono PCM (`audio/L16;codec=pcm;rate=24000`), given
 * back as `pcm` or as a WAV with its header; its seconds and the tokens the
 * answer reports are the bill. Transcriptions and translations are
 * transcribe.ts.
 *
 * What the models cannot make is refused before routing (`refusal`), each
 * naming its field: mp3, opus, aac and flac (the answer is PCM; the gateway
 * encodes none), `stream_format: sse` with another format than `pcm` (sse
 * itself is streamed, speech-stream.ts), a voice that is neither Gemini's nor
 * in the table, and a `speed` other than 1 (the models have no rate
 * control: dropping it would give audio of another length than asked).
 */
import type { Channel } from '../../../core/channel.js';
import { GatewayError } from '../../../core/errors.js';
import { PCM_BYTES_PER_SECOND, pcmWav } from '../../../dialects/openai-audio/wav.js';
import type { AudioRequest, AudioResponse, SpeechRequest } from '../../../dialects/openai-audio/wire.js';
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { AudioOperation, UpstreamCall } from '../../types.js';
import { answerTokens, emptyReason, generateOnce } from './audio-call.js';
import type { GenerateEndpoint } from './endpoint.js';
import type { GenerateSettings } from './settings.js';
import { transcribe, transcriptionRefusal } from './transcribe.js';
import { speakStream } from './speech-stream.js';
import { geminiVoice } from './voices.js';

const invalid = (param: string, message: string) => new GatewayError('invalid_request', `Invalid '${param}': ${message}`, { param });

export function generateAudio<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>): AudioOperation {
  return {
    offered: () => true,
    refusal: audioRefusal,
    serve: (request, call) =>
      request.operation === 'speech' ? whenHeaders(endpoint.headers(call), speak, endpoint, request, call) : whenHeaders(endpoint.headers(call), transcribe, endpoint, request, call),
    serveStream: (request, call) => whenHeaders(endpoint.headers(call), speakStream, endpoint, speechBody(request), call),
  };
}

function audioRefusal(request: AudioRequest, _channel: Channel): GatewayError | undefined {
  if (request.operation !== 'speech') return transcriptionRefusal(request);
  if (request.responseFormat !== 'wav' && request.responseFormat !== 'pcm') {
    return invalid('response_format', `Gemini speech models make wav and pcm audio only, not ${request.responseFormat}`);
  }
  if (request.streamFormat === 'sse' && request.responseFormat !== 'pcm') return invalid('stream_format', "Gemini speech streams pcm deltas only: ask response_format 'pcm' with stream_format 'sse'");
  if (request.speed !== 1) return invalid('speed', 'Gemini speech models have no speed control; leave speed unset or 1 (a pace can be asked in instructions)');
  if (!geminiVoice(request.voice)) return invalid('voice', `Gemini speech models have no voice ${JSON.stringify(request.voice)}; name a Gemini voice (Kore, Puck, …) or an OpenAI one (alloy, …)`);
  return undefined;
}

async function speak(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: SpeechRequest, call: UpstreamCall): Promise<AudioResponse> {
  const answer = await generateOnce(endpoint, headers, speechBody(request), call);
  const parts = answer.candidates?.[0]?.content?.parts ?? [];
  const audio = parts.find((part) => !part.thought && typeof part.inlineData?.data === 'string' && part.inlineData.mimeType?.startsWith('audio/'));
  if (!audio) throw new GatewayError('upstream_error', `upstream answered a speech request with no audio${emptyReason(answer)}; is the model a speech model?`);
  const mimeType = audio.inlineData!.mimeType!;
  if (!/^audio\/(l16|pcm)\b/i.test(mimeType)) throw new GatewayError('upstream_error', `upstream answered speech as ${mimeType}, not the PCM the gateway reads`);
  const rate = sampleRate(mimeType);
  const samples = Buffer.from(audio.inlineData!.data!, 'base64');
  const seconds = samples.length / (rate * 2);
  const tokens = answerTokens(answer);
  if (request.responseFormat === 'wav') return { kind: 'speech', contentType: 'audio/wav', bytes: pcmWav(samples, rate), seconds, ...tokens };
  // OpenAI's pcm is 24 kHz 16-bit mono, which is what the models make.
  if (rate * 2 !== PCM_BYTES_PER_SECOND) throw new GatewayError('upstream_error', `upstream answered speech at ${rate} Hz; pcm is 24 kHz (ask for wav)`);
  return { kind: 'speech', contentType: 'audio/pcm', bytes: samples, seconds, ...tokens };
}

export function speechBody(request: SpeechRequest): Record<string, unknown> {
  const direction = request.instructions?.trim().replace(/[\s.:;,]+$/, '');
  const text = direction ? `${direction}: ${request.input}` : request.input;
  return {
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig: { responseModalities: ['AUDIO'], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: geminiVoice(request.voice) } } } },
  };
}

/** The sample rate of `audio/L16;codec=pcm;rate=24000`; 24 kHz when it names none. */
function sampleRate(mimeType: string): number {
  const rate = Number(/rate=(\d+)/.exec(mimeType)?.[1]);
  return Number.isInteger(rate) && rate >= 8000 && rate <= 192_000 ? rate : 24_000;
}
