import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../../src/core/errors.js';
import { renderGenerateError } from '../../../src/dialects/generate/errors.js';
import { parseModelPath } from '../../../src/families/generate/routes.js';

describe('renderGenerateError', () => {
  const table: Array<[ErrorKind, number | undefined, number, string]> = [
    ['invalid_request', undefined, 400, 'INVALID_ARGUMENT'],
    ['unsupported_feature', undefined, 400, 'INVALID_ARGUMENT'],
    ['authentication', undefined, 401, 'UNAUTHENTICATED'],
    ['permission', undefined, 403, 'PERMISSION_DENIED'],
    ['quota_exhausted', undefined, 403, 'PERMISSION_DENIED'],
    ['not_found', undefined, 404, 'NOT_FOUND'],
    ['payload_too_large', undefined, 413, 'PAYLOAD_TOO_LARGE'],
    ['rate_limited', undefined, 429, 'RESOURCE_EXHAUSTED'],
    ['internal', undefined, 500, 'INTERNAL'],
    ['upstream_error', undefined, 500, 'INTERNAL'],
    ['unavailable', undefined, 503, 'UNAVAILABLE'],
    ['overloaded', undefined, 503, 'UNAVAILABLE'],
    ['timeout', undefined, 504, 'DEADLINE_EXCEEDED'],
    ['invalid_request', 415, 400, 'INVALID_ARGUMENT'],
  ];
  it.each(table)('%s (status %s) → %i %s', (kind, status, code, word) => {
    const rendered = renderGenerateError(new GatewayError(kind, 'something', status ? { status } : {}));
    expect(rendered.status).toBe(code);
    expect(rendered.body).toEqual({ error: { code, message: 'something', status: word } });
  });

  it('keeps a status word an upstream of this dialect reported, when it fits the code', () => {
    const precondition = new GatewayError('invalid_request', 'location', { status: 400, detail: { dialect: 'generate', code: 'FAILED_PRECONDITION' } });
    expect(renderGenerateError(precondition).body.error.status).toBe('FAILED_PRECONDITION');
    const misfit = new GatewayError('upstream_error', 'x', { detail: { dialect: 'generate', code: 'FAILED_PRECONDITION' } });
    expect(renderGenerateError(misfit).body.error.status).toBe('INTERNAL');
  });

  it('gives a 429 its wait as retry-after and as RetryInfo', () => {
    const rendered = renderGenerateError(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 4.2 }));
    expect(rendered.headers).toEqual({ 'retry-after': '5' });
    expect(rendered.body.error.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '5s' }]);
  });
});

describe('parseModelPath', () => {
  it('reads the model and the method, with or without the models/ prefix', () => {
    expect(parseModelPath('gemini-2.5-flash:generateContent')).toEqual({ model: 'gemini-2.5-flash', method: 'generateContent' });
    expect(parseModelPath('models/gemini-x:streamGenerateContent')).toEqual({ model: 'gemini-x', method: 'streamGenerateContent' });
    expect(parseModelPath('models%2Fgemini-x:generateContent')).toEqual({ model: 'gemini-x', method: 'generateContent' });
    expect(parseModelPath('org:model:generateContent')).toEqual({ model: 'org:model', method: 'generateContent' });
  });

  it('answers 404 for other methods and malformed paths', () => {
    for (const path of ['gemini:predict', 'gemini', ':generateContent', 'a/b:generateContent']) {
      expect(() => parseModelPath(path)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    }
  });
});
