/** Entra ID tokens: the client-credentials form, one fetch per credential shared by waiting requests, reuse until the refresh margin, and a refusal thrown as a refused credential without the secret. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearEntraTokens, entraHeaders } from '../../../src/upstreams/azure-openai/entra-token.js';
import type { AzureOpenAiSettings } from '../../../src/upstreams/azure-openai/settings.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { testCall, typedSettings } from '../support/call.js';

let login: FakeUpstream;
let lifetime = 3600;
let issued = 0;

beforeAll(async () => {
  login = await startFakeUpstream((request) => {
    const form = new URLSearchParams(request.body.toString());
    if (form.get('client_secret') !== 'sk-test-0123456789abcdef')
      return { status: 401, body: JSON.stringify({ error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret provided. (${form.get('client_secret')})` }) };
    issued++;
    return { status: 200, body: JSON.stringify({ token_type: 'Bearer', expires_in: lifetime, access_token: `token-${issued}` }) };
  });
});
afterAll(() => login.close());
beforeEach(() => {
  clearEntraTokens();
  lifetime = 3600;
  vi.useRealTimers();
});
afterEach(() => vi.useRealTimers());

const settingsFor = (extra: Record<string, unknown> = {}) => ({ auth: 'entra-id', tenantId: 'tenant-1', clientId: 'client-1', tokenEndpoint: `${login.origin}/tenant-1/oauth2/v2.0/token`, ...extra });
const callWith = (extra: Record<string, unknown> = {}) => testCall({ baseUrl: 'https://res.openai.azure.com', type: 'azure-openai', settings: settingsFor(extra) });
const typed = (extra: Record<string, unknown> = {}) => typedSettings<AzureOpenAiSettings>('azure-openai', settingsFor(extra));

describe('Entra ID tokens', () => {
  it('posts the client-credentials grant for the Cognitive Services scope, once for requests that wait together', async () => {
    const before = login.requests.length;
    const call = callWith();
    const [a, b] = await Promise.all([entraHeaders(typed(), call), entraHeaders(typed(), call)]);
    expect(a.authorization).toMatch(/^Bearer token-\d+$/);
    expect(b).toBe(a);
    expect(login.requests.length - before).toBe(1);
    const form = new URLSearchParams(login.requests.at(-1)!.body.toString());
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-1',
      client_secret: 'sk-test-0123456789abcdef',
      scope: 'https://cognitiveservices.azure.com/.default',
    });
    expect(login.requests.at(-1)!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('hands a cached token back synchronously, and refreshes in the background within the margin', async () => {
    const settings = typed();
    const call = callWith();
    const first = await entraHeaders(settings, call);
    const again = entraHeaders(settings, call);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toBe(first);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (3600 - 200) * 1000 });
    const before = login.requests.length;
    expect(entraHeaders(settings, call)).toBe(first); // still valid: served while one refresh runs
    await vi.waitFor(() => expect(login.requests.length).toBe(before + 1));
    await vi.waitFor(() => expect(entraHeaders(settings, call)).not.toBe(first));
  });

  it('throws a refused secret as a refused credential (upstream 401), naming the cause but not the secret', async () => {
    const call = { ...callWith(), apiKey: 'wrong-secret-0123456789' };
    const error = await Promise.resolve()
      .then(() => entraHeaders(typed(), call))
      .catch((caught: unknown) => caught as { upstreamStatus?: number; message: string; retryable?: boolean });
    expect(error).toMatchObject({ upstreamStatus: 401, retryable: true });
    expect((error as Error).message).toContain('invalid_client AADSTS7000215');
    expect((error as Error).message).not.toContain('wrong-secret');
  });

  it('refuses a channel without a client id or tenant', async () => {
    await expect(entraHeaders(typed({ clientId: undefined }), callWith())).rejects.toThrow(/clientId/);
    await expect(entraHeaders(typed({ tenantId: undefined, tokenEndpoint: undefined }), callWith())).rejects.toThrow(/tenantId/);
  });
});
