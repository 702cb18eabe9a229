import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { APICallError, generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../../src/core/errors.js';
import { renderMessagesError } from '../../../src/dialects/messages/errors.js';
import { startCannedServer, type CannedServer } from './canned-server.js';

describe('renderMessagesError', () => {
  it('renders the vendor body with the spec code and the request id', () => {
    const rendered = renderMessagesError(new GatewayError('invalid_request', 'max_tokens: must be greater than 1', { param: 'max_tokens' }), 'req_123');
    expect(rendered).toEqual({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: must be greater than 1', code: 'invalid_request' },
        request_id: 'req_123',
      },
      headers: { 'x-should-retry': 'false' },
    });
  });

  it.each<[ErrorKind, number, string]>([
    ['invalid_request', 400, 'invalid_request_error'],
    ['unsupported_feature', 400, 'invalid_request_error'],
    ['authentication', 401, 'authentication_error'],
    ['permission', 403, 'permission_error'],
    ['quota_exhausted', 403, 'permission_error'],
    ['not_found', 404, 'not_found_error'],
    ['payload_too_large', 413, 'request_too_large'],
    ['rate_limited', 429, 'rate_limit_error'],
    ['internal', 500, 'api_error'],
    ['upstream_error', 502, 'api_error'],
    ['unavailable', 503, 'api_error'],
    ['timeout', 504, 'timeout_error'],
    ['overloaded', 529, 'overloaded_error'],
  ])('%s renders as HTTP %i %s', (kind, status, type) => {
    const rendered = renderMessagesError(new GatewayError(kind, 'x'), 'req_1');
    expect(rendered.status).toBe(status);
    expect(rendered.body).toMatchObject({ type: 'error', error: { type, code: kind } });
  });

  it('uses only Messages error types, for every status', () => {
    const types = new Set(
      [400, 401, 402, 403, 404, 408, 409, 413, 415, 422, 429, 500, 501, 502, 503, 504, 529]
        .map((status) => renderMessagesError(new GatewayError('upstream_error', 'x', { status }), 'r').body)
        .map((body: any) => body.error.type),
    );
    expect([...types].sort()).toEqual([
      'api_error',
      'authentication_error',
      'billing_error',
      'invalid_request_error',
      'not_found_error',
      'overloaded_error',
      'permission_error',
      'rate_limit_error',
      'request_too_large',
      'timeout_error',
    ]);
  });

  it('tells clients not to retry 4xx except 408, 409 and 429', () => {
    const header = (status: number) => renderMessagesError(new GatewayError('invalid_request', 'x', { status }), 'r').headers['x-should-retry'];
    expect(header(400)).toBe('false');
    expect(header(404)).toBe('false');
    expect(header(408)).toBeUndefined();
    expect(header(409)).toBeUndefined();
    expect(header(429)).toBeUndefined();
    expect(header(500)).toBeUndefined();
  });

  it('adds retry-after when the wait is known', () => {
    const rendered = renderMessagesError(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 2.2 }), 'r');
    expect(rendered.headers).toEqual({ 'retry-after': '3' });
  });
});

describe('the official clients read the rendered errors', () => {
  let server: CannedServer;
  beforeAll(async () => {
    server = await startCannedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function serve(err: GatewayError) {
    const { status, body, headers } = renderMessagesError(err, 'req_abc');
    server.respond({ status, headers: { ...headers, 'content-type': 'application/json', 'request-id': 'req_abc' }, body: JSON.stringify(body) });
  }

  const request = { model: 'm', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] };

  it.each<[ErrorKind, string, string]>([
    ['invalid_request', 'BadRequestError', 'invalid_request_error'],
    ['authentication', 'AuthenticationError', 'authentication_error'],
    ['quota_exhausted', 'PermissionDeniedError', 'permission_error'],
    ['not_found', 'NotFoundError', 'not_found_error'],
    ['rate_limited', 'RateLimitError', 'rate_limit_error'],
    ['internal', 'InternalServerError', 'api_error'],
    ['unavailable', 'InternalServerError', 'api_error'],
    ['timeout', 'InternalServerError', 'timeout_error'],
    ['overloaded', 'OverloadedError', 'overloaded_error'],
  ])('@anthropic-ai/sdk maps %s to %s', async (kind, className, type) => {
    serve(new GatewayError(kind, `failure of kind ${kind}`));
    const client = new Anthropic({ baseURL: server.baseUrl, apiKey: 'x', maxRetries: 0 });
    const err = await client.messages.create(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf((Anthropic as unknown as Record<string, new () => Error>)[className]);
    expect(err).toMatchObject({ type, requestID: 'req_abc' });
  });

  it('@ai-sdk/anthropic keeps the message and the parsed body', async () => {
    serve(new GatewayError('rate_limited', 'too many requests for this key', { retryAfterSeconds: 1 }));
    const anthropic = createAnthropic({ baseURL: `${server.baseUrl}/v1`, apiKey: 'x' });
    const err = await generateText({ model: anthropic('m'), prompt: 'hi', maxRetries: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(err)).toBe(true);
    expect((err as APICallError).statusCode).toBe(429);
    expect((err as APICallError).message).toBe('too many requests for this key');
  });
});
