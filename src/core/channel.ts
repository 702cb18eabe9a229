/**
 * A channel as every layer above storage sees it: decrypted, ready to call.
 * It lives here, below routing, tasks and upstreams, because all of them
 * read it and none of them owns it.
 */
import { matchesAnyModelPattern } from './model-pattern.js';

export interface Channel {
  id: string;
  name: string;
  type: string;
  /** Provider convention: the origin for anthropic/gemini, the `/v1` prefix for OpenAI-style types; no trailing slash. */
  baseUrl: string;
  /** Upstream credentials, rotated round-robin. Never logged, never returned by any API. */
  apiKeys: string[];
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  settings: Record<string, unknown>;
}

/** Whether a channel serves a client model name: matched by its `models` patterns, or a key of its model mapping. */
export function servesModel(channel: Channel, model: string): boolean {
  return channel.modelMapping[model] !== undefined || matchesAnyModelPattern(channel.models, model);
}

export function upstreamModelFor(channel: Channel, model: string): string {
  return channel.modelMapping[model] ?? model;
}
