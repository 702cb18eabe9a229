/** Builds the UpstreamCall an adapter receives from the router, pointed at a fake upstream. */
import type { Channel } from '../../../src/core/channel.js';
import type { UpstreamCall } from '../../../src/upstreams/types.js';

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
