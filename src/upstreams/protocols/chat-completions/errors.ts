/**
 * Chat Completions error bodies → gateway errors: OpenAI's shape, the body's
 * own `code` and `param` kept as the error's `chat-completions` detail
 * (src/upstreams/openai-error-answer.ts).
 */
import { openAiStatusThrower } from '../../openai-error-answer.js';

export const throwChatCompletionsStatus = openAiStatusThrower('chat-completions');
