// Family C (Messages), streamed: text arrives as server-sent events.
import Anthropic from '@anthropic-ai/sdk';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new Anthropic({ baseURL: url, apiKey: key });
const stream = client.messages.stream({
  model: 'claude-sonnet-4-5',
  max_tokens: 200,
  messages: [{ role: 'user', content: 'Tell me a short story' }],
});
stream.on('text', (text) => process.stdout.write(text));
const final = await stream.finalMessage();
process.stdout.write(`\n[stop_reason: ${final.stop_reason}, output tokens: ${final.usage.output_tokens}]\n`);
