// Family E (Responses) with the official OpenAI client. Its base URL is the
// gateway's /v1 prefix; the key goes in Authorization: Bearer.
import OpenAI from 'openai';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key });
const first = await client.responses.create({ model: 'gpt-5', input: 'Hello' });
console.log(first.output_text);
// The gateway keeps the conversation, whatever upstream answered.
const second = await client.responses.create({ model: 'gpt-5', input: 'And again', previous_response_id: first.id });
console.log(second.output_text);
