// Family C (Messages) with the official Anthropic client. The client adds /v1
// itself, so its base URL is the gateway's origin; the key goes in x-api-key.
import Anthropic from '@anthropic-ai/sdk';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new Anthropic({ baseURL: url, apiKey: key });
const message = await client.messages.create({
  model: 'claude-sonnet-4-5',
  max_tokens: 200,
  messages: [{ role: 'user', content: 'Hello' }],
});
console.log(message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
