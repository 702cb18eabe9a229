/**
 * Gemini answers (`POST …/v1beta/models/<model>:generateContent` and
 * `:streamGenerateContent`), built once, shaped as the recorded answers in
 * test/fixtures/upstream/gemini (google-text.json / .chunks.txt):
 * every chunk is a whole GenerateContentResponse carrying the usage so far,
 * and only the last one has a `finishReason`.
 */
import { asBuffers, dataEvent } from './sse.mjs';

const RESPONSE_ID = 'bH6LaZW8Fp_3nsEPqtaSwQ4';

function usageMetadata(candidatesTokenCount) {
  return {
    promptTokenCount: 8,
    candidatesTokenCount,
    totalTokenCount: 8 + candidatesTokenCount,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }],
  };
}

function response(text, finishReason, candidatesTokenCount) {
  return {
    candidates: [
      {
        content: { parts: [{ text }], role: 'model' },
        ...(finishReason ? { finishReason } : {}),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(candidatesTokenCount),
    modelVersion: 'gem-native',
    responseId: RESPONSE_ID,
  };
}

export const geminiJson = Buffer.from(JSON.stringify(response('Hello from the fake upstream.', 'STOP', 7)));

const pieces = [response('Hello', undefined, 1), response(' from the', undefined, 3), response(' fake upstream.', 'STOP', 7)];

/** `?alt=sse`: `data:` lines only, no `event:` lines and no `[DONE]`; the stream just ends. */
export const geminiSseStream = asBuffers(pieces.map(dataEvent));

/** Without `alt=sse`: one JSON array of the same chunks. */
export const geminiJsonArray = Buffer.from(JSON.stringify(pieces));
