/**
 * Internal failures reach the client as a generic message and the request id
 * to quote; the engine or runtime text goes only to the log.
 */
import Fastify from 'fastify';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exposedError, GatewayError, toGatewayError } from '../../src/core/errors.js';
import { renderMessagesError } from '../../src/dialects/messages/errors.js';
import { newRequestId } from '../../src/server/app.js';
import { useFamilyErrors } from '../../src/http/family-errors.js';

describe('internal errors', () => {
  it('toGatewayError keeps the runtime text in the cause only', () => {
    const thrown = new RangeError('Maximum call stack size exceeded');
    const error = toGatewayError(thrown);
    expect(error.kind).toBe('internal');
    expect(error.message).toBe('internal error');
    expect(error.cause).toBe(thrown);
  });

  it('exposedError replaces an internal message with the request id to quote, and leaves client errors alone', () => {
    const internal = new GatewayError('internal', 'simulator channel x: setting taskSeconds must be positive');
    expect(exposedError(internal, 'req_1').message).toBe('internal error; quote request id req_1 to the operator');
    expect(exposedError(internal, 'req_1').status).toBe(500);
    const client = new GatewayError('invalid_request', 'model: must be a string');
    expect(exposedError(client, 'req_1')).toBe(client);
  });

  it('a family scope answers a thrown engine error with the generic message and logs the details', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ loggerInstance: pino(sink), genReqId: newRequestId });
    await app.register(async (scope) => {
      useFamilyErrors(scope, (error, requestId) => renderMessagesError(error, requestId));
      scope.get('/boom', async () => {
        throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      });
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('UTF8');
    const body = response.json();
    expect(body.error.message).toBe(`internal error; quote request id ${body.request_id} to the operator`);
    const logged = lines.map((line) => JSON.parse(line)).find((line) => line.requestId === body.request_id);
    expect(logged?.err?.message).toContain('invalid byte sequence');
  });
});
