/** How each chat family's clients ask, and what its answers and errors look like, for the fault tests. */
import type { FamilyUnderTest } from './setup.js';

/** Messages (`/v1/messages`): pass-through on Anthropic, translated on OpenAI chat completions. */
export const messagesFamily: FamilyUnderTest = {
  name: 'Messages',
  nativeType: 'anthropic',
  translatedType: 'openai-chat',
  clientKey: 'sk-client-faults-messages',
  send: (url, key, model, stream) =>
    fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 100, stream, messages: [{ role: 'user', content: 'Hi' }] }),
    }),
  isAnswer: (body) => body?.type === 'message' && Array.isArray(body.content),
  upstreamFailureStatus: 502,
  isErrorBody: (body) => body?.type === 'error' && typeof body.error?.message === 'string',
  isErrorFrame: (event) => event.event === 'error' && event.json?.type === 'error' && typeof event.json.error?.message === 'string',
};

/** Responses (`/v1/responses`): pass-through on OpenAI Responses, translated on Anthropic. */
export const responsesFamily: FamilyUnderTest = {
  name: 'Responses',
  nativeType: 'openai-responses',
  translatedType: 'anthropic',
  clientKey: 'sk-client-faults-responses',
  send: (url, key, model, stream) =>
    fetch(`${url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, stream, input: 'Hi' }),
    }),
  isAnswer: (body) => body?.object === 'response' && Array.isArray(body.output),
  upstreamFailureStatus: 502,
  isErrorBody: (body) => typeof body?.error?.message === 'string' && typeof body.error.type === 'string',
  // The error event comes first, then the terminal `response.failed` clients wait for.
  isErrorFrame: (event) => event.event === 'response.failed' && event.json?.response?.status === 'failed',
};

/** Content generation (`:generateContent`, `:streamGenerateContent?alt=sse`): pass-through on Gemini, translated on OpenAI Responses. */
export const generateFamily: FamilyUnderTest = {
  name: 'generateContent',
  nativeType: 'gemini',
  translatedType: 'openai-responses',
  clientKey: 'AIza-client-faults-generate',
  send: (url, key, model, stream) =>
    fetch(`${url}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    }),
  isAnswer: (body) => Array.isArray(body?.candidates),
  upstreamFailureStatus: 500,
  isErrorBody: (body) => typeof body?.error?.code === 'number' && typeof body.error.message === 'string' && typeof body.error.status === 'string',
  isErrorFrame: (event) => typeof event.json?.error?.code === 'number' && typeof event.json.error.status === 'string',
};
