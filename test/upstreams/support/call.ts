/** Builds the UpstreamCall an adapter receives from the router, pointed at a fake upstream. */
import type { Channel } from '../../../src/core/channel.js';
import type { ChatRequest } from '../../../src/core/chat.js';
import type { TranslationPlan } from '../../../src/core/translation-plan.js';
import type { ChatResult, Prepared, UpstreamAdapter, UpstreamCall } from '../../../src/upstreams/types.js';

export const TEST_API_KEY = 'sk-test-0123456789abcdef';

export function testChannel(overrides: Partial<Channel> = {}): Channel {
  return {
    id: 'ch_test',
    name: 'test channel',
    type: 'test',
    baseUrl: 'http://127.0.0.1:9',
    apiKeys: [TEST_API_KEY],
    models: [],
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    settings: {},
    ...overrides,
  };
}

export function testCall(options: {
  baseUrl: string;
  upstreamModel?: string;
  clientHeaders?: UpstreamCall['clientHeaders'];
  settings?: Record<string, unknown>;
  timeoutMs?: number;
  signal?: AbortSignal;
  type?: string;
}): UpstreamCall {
  return {
    channel: testChannel({ baseUrl: options.baseUrl, settings: options.settings ?? {}, type: options.type ?? 'test' }),
    upstreamModel: options.upstreamModel ?? 'upstream-model',
    apiKey: TEST_API_KEY,
    signal: options.signal ?? new AbortController().signal,
    requestId: 'req_test',
    clientHeaders: options.clientHeaders ?? {},
    timeoutMs: options.timeoutMs ?? 5_000,
  };
}

/** An adapter's translation as the pipeline runs it: prepared (with the call's channel settings and model), then sent. */
export function sendChat<S, P extends Prepared<unknown>>(adapter: UpstreamAdapter<S, P>, request: ChatRequest, call: UpstreamCall, strict = false): Promise<ChatResult> {
  const prepared = adapter.prepare(request, { strict, settings: call.channel.settings as S, upstreamModel: call.upstreamModel });
  if (prepared.decisions.refusal) return Promise.reject(prepared.decisions.refusal);
  return adapter.chat(prepared, request, call);
}

/** An adapter's plan alone: the decisions of its `prepare` (no upstream is called). */
export function planOf<S, P extends Prepared<unknown>>(
  adapter: UpstreamAdapter<S, P>,
  request: ChatRequest,
  options: { strict?: boolean; settings?: Record<string, unknown>; upstreamModel?: string } = {},
): TranslationPlan {
  return adapter.prepare(request, { strict: options.strict ?? false, settings: (options.settings ?? {}) as S, upstreamModel: options.upstreamModel ?? 'm' }).decisions;
}
