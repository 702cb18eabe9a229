/**
 * OpenAI's Batch API as the gateway calls it: where a channel has one
 * (`batchApi`, on by default only at api.openai.com), a result file read
 * line by line across chunk boundaries (a character split between chunks
 * kept whole), and an upstream error that never carries the key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { GatewayError } from '../../src/core/errors.js';
import { fileLines, getBatch } from '../../src/upstreams/openai-batch-api.js';
import { batchApiBaseUrl as chatBatchApi } from '../../src/upstreams/openai-chat/endpoint.js';
import { batchApiBaseUrl as responsesBatchApi } from '../../src/upstreams/openai-responses/endpoint.js';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';

const channel = (type: string, baseUrl: string, settings: Record<string, unknown> = {}): Channel => ({
  ...{ id: 'ch', name: 'ch', type, baseUrl, apiKeys: ['sk-secret-key-0123456789'], models: ['*'], modelMapping: {} },
  ...{ priority: 0, weight: 1, enabled: true, settings },
});

describe('batchApi', () => {
  it('is on by default at OpenAI only, and follows the setting', () => {
    expect(chatBatchApi(channel('openai-chat', 'https://api.openai.com/v1'))).toBe('https://api.openai.com/v1');
    expect(chatBatchApi(channel('openai-chat', 'http://vllm.internal:8000/v1'))).toBeUndefined();
    expect(chatBatchApi(channel('openai-chat', 'https://api.deepseek.com/v1'))).toBeUndefined();
    expect(chatBatchApi(channel('openai-chat', 'http://proxy.internal/v1', { batchApi: true }))).toBe('http://proxy.internal/v1');
    expect(chatBatchApi(channel('openai-chat', 'https://api.openai.com/v1', { batchApi: false }))).toBeUndefined();
    expect(responsesBatchApi(channel('openai-responses', ''))).toBe('https://api.openai.com/v1');
    expect(responsesBatchApi(channel('openai-responses', 'http://other/v1'))).toBeUndefined();
  });
});

describe('the Batch API client', () => {
  let upstream: FakeUpstream | undefined;
  afterEach(async () => {
    await upstream?.close();
  });
  const connection = (origin: string) => ({ baseUrl: `${origin}/v1`, apiKey: 'sk-secret-key-0123456789', timeoutMs: 5_000 });

  it('reads a result file line by line across chunks', async () => {
    const text = `${JSON.stringify({ custom_id: '0', answer: 'héllo' })}\n\n${JSON.stringify({ custom_id: '1', answer: 'wörld' })}\nnot json\n${JSON.stringify({ custom_id: '2' })}`;
    const bytes = Buffer.from(text);
    // Cut inside the first multi-byte character and inside lines.
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    upstream = await startFakeUpstream({ status: 200, chunks: [bytes.subarray(0, cut), bytes.subarray(cut, cut + 30), bytes.subarray(cut + 30)] });
    const lines: Record<string, unknown>[] = [];
    for await (const line of fileLines(connection(upstream.origin), 'file-1')) lines.push(line);
    expect(lines).toEqual([{ custom_id: '0', answer: 'héllo' }, { custom_id: '1', answer: 'wörld' }, { custom_id: '2' }]);
    expect(upstream.requests[0].url).toBe('/v1/files/file-1/content');
    expect(upstream.requests[0].headers.authorization).toBe('Bearer sk-secret-key-0123456789');
  });

  it('turns an upstream refusal into a 4xx error without the key', async () => {
    upstream = await startFakeUpstream({ status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'No batch for key sk-secret-key-0123456789' } }) });
    const error = await getBatch(connection(upstream.origin), 'batch_x').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBeGreaterThanOrEqual(400);
    expect((error as GatewayError).status).toBeLessThan(500);
    expect((error as GatewayError).message).not.toContain('sk-secret-key-0123456789');
  });
});
