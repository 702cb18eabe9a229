/**
 * The `anthropic` upstream: the Anthropic Messages API (base URL = the origin,
 * e.g. https://api.anthropic.com; requests go to <base>/v1/messages), spoken
 * by the Messages protocol (protocols/messages/) at this type's endpoint.
 * Messages clients get the byte-for-byte pass-through; other clients are translated.
 */
import { messagesProtocol } from '../protocols/messages/index.js';
import { anthropicEndpoint } from './endpoint.js';

export const anthropicAdapter = messagesProtocol(anthropicEndpoint);
