/**
 * The `openai-chat` upstream: any OpenAI-compatible chat-completions server
 * (OpenAI, DeepSeek, Groq, vLLM, …). No client family speaks this dialect, so
 * every request is translated. It honours no optional features (the internal
 * answer has no place for logprobs or several candidates) and runs no builtin tools.
 */
import type { UpstreamAdapter } from '../types.js';
import { planOpenAiChat } from './capabilities.js';
import { chatCompletionsChat } from './chat.js';

export const openAiChatAdapter: UpstreamAdapter = {
  type: 'openai-chat',
  plan: planOpenAiChat,
  chat: chatCompletionsChat,
};
