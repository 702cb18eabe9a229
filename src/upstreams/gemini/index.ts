/**
 * The `gemini` upstream: the Gemini API (base URL = the origin, e.g.
 * https://generativelanguage.googleapis.com, or empty for that default;
 * requests go to <base>/v1beta/models/<model>:<method>, key in `x-goog-api-key`),
 * spoken by the content-generation protocol (protocols/generate/) at this
 * type's endpoint. Content-generation clients get the byte-for-byte
 * pass-through; other clients are translated.
 */
import { generateProtocol } from '../protocols/generate/index.js';
import { geminiEndpoint } from './endpoint.js';

export const geminiAdapter = generateProtocol(geminiEndpoint);
