/**
 * Upstream faults seen by a Messages client (`/v1/messages`): on the
 * pass-through path (an Anthropic channel) and translated (an OpenAI chat
 * completions channel). See scenarios.ts for what is asserted.
 */
import { describeUpstreamFaults } from './scenarios.js';

describeUpstreamFaults({
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
  isErrorBody: (body) => body?.type === 'error' && typeof body.error?.message === 'string',
  isErrorFrame: (event) => event.event === 'error' && event.json?.type === 'error' && typeof event.json.error?.message === 'string',
});
