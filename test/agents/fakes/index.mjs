/** The scripted fake upstreams, by channel type. */
import { start as anthropic } from './anthropic.mjs';
import { start as gemini } from './gemini.mjs';
import { start as openaiChat } from './openai-chat.mjs';
import { start as openaiResponses } from './openai-responses.mjs';

export const FAKES = { anthropic, 'openai-chat': openaiChat, gemini, 'openai-responses': openaiResponses };

/** Starts the fake for a channel type: `{ name, origin, baseUrl, requests, close }`. */
export function startFake(type, options = {}) {
  const start = FAKES[type];
  if (!start) throw new Error(`no fake upstream for channel type ${type}`);
  return start(options);
}
