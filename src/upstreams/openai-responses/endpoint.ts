/** Where and how to call the OpenAI Responses API: `<base>/responses` with the channel's key as a Bearer credential. */
import { joinUrl } from '../http.js';
import type { UpstreamCall } from '../types.js';

/** Used when the channel names no base URL (the `/v1` prefix is part of it, as for every OpenAI-style type). */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export function responsesUrl(call: UpstreamCall): string {
  return joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/responses');
}

/** Where OpenAI compacts a conversation (`POST /responses/compact`). */
export function compactUrl(call: UpstreamCall): string {
  return joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/responses/compact');
}

/** The routing word a family sets on a pass-through request to reach `compactUrl`. */
export const COMPACT_METHOD = 'compact';

/** A channel without a key sends no auth header, never an empty `Bearer `. */
export function responsesHeaders(call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  return headers;
}
