/**
 * The `openai-chat` upstream: any OpenAI-compatible chat-completions server
 * (OpenAI, DeepSeek, Groq, vLLM, …), spoken by the Chat Completions protocol
 * (protocols/chat-completions/) at this type's endpoint.
 */
import { chatCompletionsProtocol } from '../protocols/chat-completions/index.js';
import { openAiChatEndpoint } from './endpoint.js';

export const openAiChatAdapter = chatCompletionsProtocol(openAiChatEndpoint);
