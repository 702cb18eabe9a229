/**
 * An anthropic channel's `batchApi`: on by default at api.anthropic.com
 * only, and as set otherwise; the headers of the gateway's own calls to the
 * Message Batches API (the default version, the channel's key); a create
 * streamed page by page; an error answer that never carries the key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import { GatewayError } from '../../../src/core/errors.js';
import { ownCallHeaders } from '../../../src/upstreams/anthropic/endpoint.js';
import { createMessageBatch } from '../../../src/upstreams/anthropic/message-batches-api.js';
import { anthropicSettingsOf, offersMessageBatches } from '../../../src/upstreams/anthropic/settings.js';
import { type FakeUpstream, startFakeUpstream } from '../support/fake-upstream.js';

const KEY = 'sk-ant-secret-key-0123456789';
const channel = (baseUrl: string, settings: Record<string, unknown> = {}): Channel => ({
  ...{ id: 'ch', name: 'ch', type: 'anthropic', baseUrl, apiKeys: [KEY], models: ['*'], modelMapping: {} },
  ...{ priority: 0, weight: 1, enabled: true, settings },
});
const offers = (c: Channel) => offersMessageBatches(anthropicSettingsOf(c), c.baseUrl);

describe('batchApi on anthropic channels', () => {
  it('is on by default at Anthropic only, and follows the setting', () => {
    expect(offers(channel('https://api.anthropic.com'))).toBe(true);
    expect(offers(channel('http://claude-proxy.internal:8080'))).toBe(false);
    expect(offers(channel('http://claude-proxy.internal:8080', { batchApi: true }))).toBe(true);
    expect(offers(channel('https://api.anthropic.com', { batchApi: false }))).toBe(false);
  });

  it('sends the default version and the key on its own calls', () => {
    expect(ownCallHeaders(channel('https://api.anthropic.com'), KEY)).toEqual({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': KEY });
    expect(ownCallHeaders(channel('https://api.anthropic.com'), '')).not.toHaveProperty('x-api-key');
  });
});

describe('the Message Batches API client', () => {
  let upstream: FakeUpstream | undefined;
  afterEach(async () => {
    await upstream?.close();
  });

  it('streams the requests inline, and masks the key out of an error', async () => {
    upstream = await startFakeUpstream(() => ({ status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `bad key ${KEY}` } }) }));
    const connection = { baseUrl: upstream.origin, headers: ownCallHeaders(channel(upstream.origin), KEY), apiKey: KEY, timeoutMs: 5_000 };
    async function* pages() {
      yield [{ custom_id: '0', params: { model: 'm', max_tokens: 1, messages: [] } }];
      yield [];
      yield [{ custom_id: '2', params: { model: 'm', max_tokens: 1, messages: [] } }];
    }
    const error = await createMessageBatch(connection, pages()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect(JSON.stringify({ message: (error as GatewayError).message, reply: (error as GatewayError).upstreamReply })).not.toContain(KEY);
    const sent = upstream.requests[0];
    expect(sent.url).toBe('/v1/messages/batches');
    expect(sent.json<{ requests: { custom_id: string }[] }>().requests.map((entry) => entry.custom_id)).toEqual(['0', '2']);
  });
});
