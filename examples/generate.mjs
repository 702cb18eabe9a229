// Family D (content generation) with the official Google GenAI client. Its
// base URL is the gateway's origin; the key goes in x-goog-api-key.
import { GoogleGenAI } from '@google/genai';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello' });
console.log(response.text);
