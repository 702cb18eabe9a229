/** The headers of every chat-completions exchange: JSON, and the channel's key as a Bearer credential when it has one. */
import type { UpstreamCall } from '../types.js';

/** A keyless channel (a local server) gets no auth header, never an empty `Bearer `. */
export function chatCompletionsHeaders(call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  return headers;
}
