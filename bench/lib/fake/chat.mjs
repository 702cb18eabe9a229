/** OpenAI chat completion answers (`POST …/chat/completions`), built once. */
import { asBuffers, dataEvent } from './sse.mjs';

const CREATED = 1_767_225_600;

export const chatJson = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench0001',
    object: 'chat.completion',
    created: CREATED,
    model: 'translated-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello from the fake upstream.', refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 8, completion_tokens: 7, total_tokens: 15 },
    system_fingerprint: 'fp_bench',
  }),
);

function chunk(delta, finishReason, usage) {
  const body = {
    id: 'chatcmpl-bench0001',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'translated-model',
    system_fingerprint: 'fp_bench',
    choices: usage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (usage) body.usage = usage;
  return dataEvent(body);
}

/** Seven chunks (role, five text pieces, finish), then the usage chunk and [DONE]. */
export const chatStream = asBuffers([
  chunk({ role: 'assistant', content: '' }, null),
  ...['Hello', ' from', ' the', ' fake', ' upstream.'].map((content) => chunk({ content }, null)),
  chunk({}, 'stop'),
  chunk(undefined, null, { prompt_tokens: 8, completion_tokens: 7, total_tokens: 15 }),
  'data: [DONE]\n\n',
]);
