/**
 * Channel type → adapter. Adding an upstream dialect: a folder under
 * src/upstreams/ exporting an UpstreamAdapter, and one entry here.
 */
import { GatewayError } from '../core/errors.js';
import { anthropicAdapter } from './anthropic/index.js';
import { geminiAdapter } from './gemini/index.js';
import { openAiChatAdapter } from './openai-chat/index.js';
import { openAiResponsesAdapter } from './openai-responses/index.js';
import { simulatorAdapter } from './simulator/index.js';
import type { UpstreamAdapter } from './types.js';

export class AdapterRegistry {
  private readonly adapters = new Map<string, UpstreamAdapter>();

  constructor(adapters: UpstreamAdapter[]) {
    for (const adapter of adapters) this.adapters.set(adapter.type, adapter);
  }

  get(type: string): UpstreamAdapter {
    const adapter = this.adapters.get(type);
    if (!adapter) throw new GatewayError('internal', `no upstream adapter for channel type "${type}"`);
    return adapter;
  }

  has(type: string): boolean {
    return this.adapters.has(type);
  }

  types(): string[] {
    return [...this.adapters.keys()];
  }
}

export function defaultAdapters(): AdapterRegistry {
  return new AdapterRegistry([simulatorAdapter, anthropicAdapter, openAiChatAdapter, openAiResponsesAdapter, geminiAdapter]);
}
