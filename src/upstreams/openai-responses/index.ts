/**
 * The `openai-responses` upstream: the OpenAI Responses API (base URL with the
 * `/v1` prefix, e.g. https://api.openai.com/v1; requests go to <base>/responses).
 * Responses clients get the pass-through (the family maps ids and stored
 * state); Messages and content-generation clients are translated. Hosted tools
 * of this dialect are forwarded as they are.
 */
import type { UpstreamAdapter } from '../types.js';
import { responsesChat } from './chat.js';
import { responsesPassThrough } from './pass-through.js';

/**
 * Hosted tools of the Responses dialect (BuiltinTool.kind) this upstream runs
 * itself. New ones appear often, so any snake_case word is accepted, except
 * the dated kinds of the Messages dialect (`web_search_20250305`…), which it cannot run.
 */
class ResponsesHostedTools extends Set<string> {
  override has(kind: string): boolean {
    return /^[a-z][a-z0-9_]*$/.test(kind) && !/_\d{8}$/.test(kind) && kind !== 'function';
  }
}

export const openAiResponsesAdapter: UpstreamAdapter = {
  type: 'openai-responses',
  nativeDialect: 'responses',
  supportedFeatures: new Set<string>(),
  supportedBuiltinTools: new ResponsesHostedTools(['file_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'computer_use_preview']),
  chat: responsesChat,
  passThrough: responsesPassThrough,
};
