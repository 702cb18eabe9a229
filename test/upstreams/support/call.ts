/** Builds the UpstreamCall an adapter receives from the router, pointed at a fake upstream. */
import type { Channel } from '../../../src/core/channel.js';
import type { ChatRequest, Dialect } from '../../../src/core/chat.js';
import type { TranslationPlan } from '../../../src/core/translation-plan.js';
import { channelType } from '../../../src/upstreams/registry.js';
import { checkChannelSettings, parseStoredSettings } from '../../../src/upstreams/settings-check.js';
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

/**
 * Hand-written settings as the pipeline hands them to an adapter of `type`:
 * checked as written (a typo fails the test) and parsed by the type's schema,
 * every default filled in, as the channel registry does.
 */
export function typedSettings<S>(type: string, settings: Record<string, unknown> = {}): S {
  const entry = channelType(type);
  if (!entry) throw new Error(`no channel type ${type}`);
  const problem = checkChannelSettings(type, entry.settings, settings, false).problem;
  if (problem) throw new Error(`test settings for ${type} are refused: ${problem.field} ${problem.message}`);
  return parseStoredSettings(type, entry.settings, settings) as S;
}

/** An adapter's `prepare`, its settings written by hand (see `typedSettings`). */
export function prepareWith<S, P extends Prepared<unknown>>(
  adapter: UpstreamAdapter<S, P>,
  request: ChatRequest,
  options: { strict?: boolean; settings?: Record<string, unknown>; upstreamModel?: string; dialect?: Dialect } = {},
): P {
  const { strict = false, settings, upstreamModel = 'm', dialect } = options;
  return adapter.prepare(request, { strict, settings: typedSettings<S>(adapter.type, settings), upstreamModel, dialect });
}

/** An adapter's translation as the pipeline runs it: prepared (with the call's channel settings and model), then sent. */
export function sendChat<S, P extends Prepared<unknown>>(adapter: UpstreamAdapter<S, P>, request: ChatRequest, call: UpstreamCall, strict = false): Promise<ChatResult> {
  const prepared = prepareWith(adapter, request, { strict, settings: call.channel.settings, upstreamModel: call.upstreamModel });
  if (prepared.decisions.refusal) return Promise.reject(prepared.decisions.refusal);
  return adapter.chat(prepared, request, call);
}

/** An adapter's plan alone: the decisions of its `prepare` (no upstream is called). */
export function planOf<S, P extends Prepared<unknown>>(
  adapter: UpstreamAdapter<S, P>,
  request: ChatRequest,
  options: { strict?: boolean; settings?: Record<string, unknown>; upstreamModel?: string; dialect?: Dialect } = {},
): TranslationPlan {
  return prepareWith(adapter, request, options).decisions;
}
