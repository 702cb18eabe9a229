/** Where a Gemini channel is called. */
import { describe, expect, it } from 'vitest';
import { geminiHeaders, geminiUrl } from '../../../src/upstreams/gemini/endpoint.js';
import { TEST_API_KEY, testCall } from '../support/call.js';

describe('geminiUrl', () => {
  it('defaults to the public origin and v1beta, the key only in a header', () => {
    const call = testCall({ baseUrl: '', upstreamModel: 'gemini-2.5-flash', type: 'gemini' });
    expect(geminiUrl(call, 'generateContent')).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(geminiUrl(call, 'streamGenerateContent?alt=sse')).not.toContain(TEST_API_KEY);
    expect(geminiHeaders(call)).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': TEST_API_KEY });
  });

  it('joins a base URL with a trailing slash', () => {
    const call = testCall({ baseUrl: 'http://127.0.0.1:9/', upstreamModel: 'm', type: 'gemini' });
    expect(geminiUrl(call, 'generateContent')).toBe('http://127.0.0.1:9/v1beta/models/m:generateContent');
  });
});
