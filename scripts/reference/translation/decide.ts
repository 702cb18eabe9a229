/**
 * The upstreams' pure planning step, as the tables call it: every chat
 * channel type of the registry, and the one call that asks an adapter what it
 * would do with a translated request.
 */
import type { Channel } from '../../../src/core/channel.js';
import type { ChatRequest, Dialect } from '../../../src/core/chat.js';
import type { FieldDecision } from '../../../src/core/translation-plan.js';
import { CHANNEL_TYPES } from '../../../src/upstreams/registry.js';
import { checkChannelSettings, parseStoredSettings } from '../../../src/upstreams/settings-check.js';
import type { UpstreamAdapter } from '../../../src/upstreams/types.js';

export interface ChatUpstream {
  /** The channel type (probe settings are keyed by it). */
  type: string;
  /** The table's column: the type, or one of its `planColumns`. */
  label: string;
  adapter: UpstreamAdapter;
  /** The upstream model the column is planned for; absent: the request's. */
  upstreamModel?: string;
  /** A channel's settings as the registry hands them to the adapter (checked as written, defaults filled). */
  settings(raw: Record<string, unknown>): Record<string, unknown>;
}

/** Every channel type that serves chat, in the registry's order (the tables' columns). */
export async function chatUpstreams(): Promise<ChatUpstream[]> {
  const out: ChatUpstream[] = [];
  for (const entry of CHANNEL_TYPES) {
    const { chat } = await entry.load();
    if (!chat) continue;
    const settings = (raw: Record<string, unknown>) => {
      const problem = checkChannelSettings(entry.type, entry.settings, raw, false).problem;
      if (problem) throw new Error(`a probe's ${entry.type} settings are refused: ${problem.field} ${problem.message}`);
      return parseStoredSettings(entry.type, entry.settings, raw);
    };
    const columns = entry.planColumns ? Object.entries(entry.planColumns) : [[entry.type, {}] as const];
    for (const [label, column] of columns) out.push({ type: entry.type, label, adapter: chat, upstreamModel: (column as { upstreamModel?: string }).upstreamModel, settings });
  }
  return out;
}

/** What the upstream decides for each field of a translated request from a client of `dialect`: a channel with these settings, strict translation off. */
export function decisionsOf(upstream: ChatUpstream, request: ChatRequest, settings: Record<string, unknown>, dialect: Dialect): FieldDecision[] {
  const upstreamModel = upstream.upstreamModel ?? request.model;
  return upstream.adapter.prepare(request, { strict: false, settings: upstream.settings(settings), upstreamModel, dialect }).decisions.decisions;
}

/** Whether the column's channel takes a client of `dialect` as it is (pass-through, no plan). */
export function passesThrough(upstream: ChatUpstream, dialect: Dialect, probeModel: string): boolean {
  const channel: Channel = { id: 'probe', name: 'probe', type: upstream.type, baseUrl: '', apiKeys: [], models: ['*'], modelMapping: {}, priority: 0, weight: 1, enabled: true, settings: {} };
  const native = upstream.adapter.nativeFor
    ? upstream.adapter.nativeFor(dialect, upstream.upstreamModel ?? probeModel, channel)
    : upstream.adapter.nativeDialect === dialect
      ? upstream.adapter
      : undefined;
  return native?.passThrough !== undefined;
}
