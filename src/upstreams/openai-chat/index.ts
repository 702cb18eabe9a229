/**
 * The `openai-chat` upstream: any OpenAI-compatible chat-completions server
 * (OpenAI, DeepSeek, Groq, vLLM, …). Chat Completions clients get the
 * pass-through path; other families are translated, and then it honours no
 * optional features (the internal answer has no place for logprobs or several
 * candidates) and runs no builtin tools.
 */
import type { UpstreamAdapter } from '../types.js';
import { prepareOpenAiChat, type OpenAiChatPrepared } from '../protocols/chat-completions/convert-request.js';
import type { OpenAiChatSettings } from './settings.js';
import { chatCompletionsChat } from '../protocols/chat-completions/chat.js';
import { openAiEmbeddings, openAiEmbeddingsPassThrough } from '../protocols/chat-completions/embed.js';
import { chatCompletionsPassThrough } from '../protocols/chat-completions/pass-through.js';

export const openAiChatAdapter: UpstreamAdapter<OpenAiChatSettings, OpenAiChatPrepared> = {
  type: 'openai-chat',
  nativeDialect: 'chat-completions',
  prepare: prepareOpenAiChat,
  chat: chatCompletionsChat,
  passThrough: chatCompletionsPassThrough,
  embed: openAiEmbeddings,
  embedPassThrough: openAiEmbeddingsPassThrough,
};
