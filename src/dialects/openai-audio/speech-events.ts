/**
 * OpenAI's streamed speech (`stream_format: sse`), for an upstream that
 * makes the audio itself: a `speech.audio.delta` event per chunk of audio
 * (base64, in the asked format), then `speech.audio.done` with the usage in
 * tokens (OpenAI's `SpeechAudioDeltaEvent` and `SpeechAudioDoneEvent`).
 */

export interface SpeechAudioDeltaEvent {
  type: 'speech.audio.delta';
  audio: string;
}

export interface SpeechAudioDoneEvent {
  type: 'speech.audio.done';
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
}

const frame = (event: SpeechAudioDeltaEvent | SpeechAudioDoneEvent): string => `data: ${JSON.stringify(event)}\n\n`;

export function speechDeltaFrame(audio: Buffer): string {
  return frame({ type: 'speech.audio.delta', audio: audio.toString('base64') });
}

export function speechDoneFrame(inputTokens = 0, outputTokens = 0): string {
  return frame({ type: 'speech.audio.done', usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens } });
}
