/**
 * A Messages client always gets a Messages error type, whatever failed
 * behind the gateway: one unreachable channel is 503 `api_error` (the
 * official client's InternalServerError), every channel unreachable 529
 * `overloaded_error`, for plain and streaming requests alike.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-messages-error-types-01';
let gw: TestGateway;

beforeAll(async () => {
  const closed = (name: string, models: string[]) => ({ name, type: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-up', models });
  gw = await startGateway({
    config: {
      channels: [closed('one', ['claude-one', 'claude-two']), closed('two', ['claude-two'])],
      keys: [{ name: 'client', key: KEY }],
    },
  });
});
afterAll(async () => gw?.close());

const request = (model: string) => ({ model, max_tokens: 20, messages: [{ role: 'user' as const, content: 'hi' }] });

it('answers 503 api_error for one unreachable channel, and the official client reads it', async () => {
  const client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
  const error = await client.messages.create(request('claude-one')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Anthropic.InternalServerError);
  expect(error).toMatchObject({ status: 503, type: 'api_error' });
});

it('answers 529 overloaded_error when every channel is unreachable', async () => {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ ...request('claude-two'), stream: true }),
  });
  expect(response.status).toBe(529);
  expect(((await response.json()) as any).error.type).toBe('overloaded_error');
});
