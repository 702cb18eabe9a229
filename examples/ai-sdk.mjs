// The `ai` SDK through the gateway's Messages family (@ai-sdk/anthropic). The
// provider's base URL is the gateway's /v1 prefix.
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText } from 'ai';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const anthropic = createAnthropic({ baseURL: `${url}/v1`, apiKey: key });
const { text } = await generateText({ model: anthropic('claude-sonnet-4-5'), prompt: 'Hello' });
console.log(text);
