/**
 * The harness's cloud fakes refuse what the clouds refuse, so a case that
 * passes through them proves the gateway spoke each cloud's protocol: Vertex
 * AI's token exchange, Bearer tokens and Anthropic body rules; Azure
 * OpenAI's api-key and deployments; Bedrock's Signature Version 4, InvokeModel
 * body rules and event streams.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsSdk } from '../../src/upstreams/aws-sdk.js';
import { awsSigner, signedHeaders } from '../../src/upstreams/bedrock/signing.js';
import { CLOUD_PLATFORM } from '../support/jwt-grant-verify.mjs';
import { type Fake, startFake } from './fakes/index.mjs';

interface ServiceAccountKey {
  private_key: string;
  client_email: string;
  token_uri: string;
  project_id: string;
}

/** A JWT-bearer assertion as google-auth-library writes it, signed with `privateKey`. */
function assertion(key: ServiceAccountKey, privateKey: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: key.client_email, scope: CLOUD_PLATFORM, aud: key.token_uri, iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

function exchange(key: ServiceAccountKey, privateKey: string): Promise<Response> {
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion(key, privateKey) });
  return fetch(key.token_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
}

const plainTurn = { max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] };

describe('the vertex fake', () => {
  let fake: Fake;
  let key: ServiceAccountKey;
  let models: string;
  beforeAll(async () => {
    fake = await startFake('vertex');
    key = JSON.parse(fake.channel!.apiKey);
    const { project, location } = fake.channel!.settings;
    models = `${fake.origin}/v1/projects/${project}/locations/${location}/publishers/anthropic/models`;
  });
  afterAll(() => fake.close());

  const predict = (token: string | undefined, body: unknown, path = `${fake.channel!.upstreamModel}:rawPredict`) =>
    fetch(`${models}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

  it('issues a token for an assertion signed with the key it handed out, with an expiry', async () => {
    const response = await exchange(key, key.private_key);
    expect(response.status).toBe(200);
    const token = (await response.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const answer = await predict(token.access_token, { ...plainTurn, anthropic_version: 'vertex-2023-10-16' });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain('SWITCHYARD_PLAIN_OK');
  });

  it('refuses an assertion signed with another key, and a model call without a token it issued', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refused = await exchange(key, other);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    const body = { ...plainTurn, anthropic_version: 'vertex-2023-10-16' };
    expect((await predict(undefined, body)).status).toBe(401);
    expect((await predict('ya29.made-up', body)).status).toBe(401);
  });

  it('refuses a body with a model or without the Vertex anthropic_version, and a model it does not serve', async () => {
    const token = ((await (await exchange(key, key.private_key)).json()) as { access_token: string }).access_token;
    const withModel = await predict(token, { ...plainTurn, model: 'claude-sonnet-4-5', anthropic_version: 'vertex-2023-10-16' });
    expect(withModel.status).toBe(400);
    expect(await withModel.json()).toMatchObject({ error: { message: 'model: Extra inputs are not permitted' } });
    expect((await predict(token, plainTurn)).status).toBe(400);
    expect((await predict(token, { ...plainTurn, anthropic_version: 'vertex-2023-10-16' }, 'claude-opus-5:rawPredict')).status).toBe(404);
    const count = await predict(token, { ...plainTurn, model: fake.channel!.upstreamModel, anthropic_version: 'vertex-2023-10-16' }, 'count-tokens:rawPredict');
    expect(count.status).toBe(200);
  });
});

describe('the azure-openai fake', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('azure-openai');
  });
  afterAll(() => fake.close());

  const post = (path: string, body: Record<string, unknown>, apiKey = fake.channel!.apiKey) =>
    fetch(`${fake.origin}/openai/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'api-key': apiKey }, body: JSON.stringify(body) });

  it('answers the deployment on the v1 routes with its api-key', async () => {
    const deployment = fake.channel!.upstreamModel;
    const response = await post('/responses', { model: deployment, input: 'hello' });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('SWITCHYARD_PLAIN_OK');
    const stream = await post('/chat/completions', { model: deployment, stream: true, messages: [{ role: 'user', content: 'hello' }] });
    const first = (await stream.text()).split('\n\n')[0]!;
    expect(JSON.parse(first.slice('data: '.length))).toMatchObject({ id: '', choices: [], prompt_filter_results: [{ prompt_index: 0 }] });
  });

  it('refuses another key and an unknown deployment', async () => {
    expect((await post('/responses', { model: fake.channel!.upstreamModel, input: 'hello' }, 'not-the-key')).status).toBe(401);
    const unknown = await post('/responses', { model: 'gpt-5.5', input: 'hello' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'DeploymentNotFound' } });
  });
});

describe('the bedrock fake', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake('bedrock');
  });
  afterAll(() => fake.close());

  const bedrockTurn = { ...plainTurn, anthropic_version: 'bedrock-2023-05-31' };
  /** InvokeModel signed as the AWS SDK signs it, with the channel's key or another secret for its key id. */
  const invoke = async (body: unknown, { operation = 'invoke', secret }: { operation?: string; secret?: string } = {}) => {
    const [accessKeyId, secretAccessKey] = fake.channel!.apiKey.split(':') as [string, string];
    const { region, endpoint } = fake.channel!.settings as { region: string; endpoint: string };
    const url = `${endpoint}/model/${encodeURIComponent(fake.channel!.upstreamModel)}/${operation}`;
    const text = JSON.stringify(body);
    const headers = await signedHeaders(awsSigner(await awsSdk(), { accessKeyId, secretAccessKey: secret ?? secretAccessKey }, region), url, { 'content-type': 'application/json' }, text);
    return fetch(url, { method: 'POST', headers: headers as Record<string, string>, body: text });
  };

  it('answers a signed InvokeModel, and streams Anthropic events as event-stream chunks', async () => {
    const response = await invoke(bedrockTurn);
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('SWITCHYARD_PLAIN_OK');
    const stream = await invoke(bedrockTurn, { operation: 'invoke-with-response-stream' });
    expect(stream.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const bytes = new Uint8Array(await stream.arrayBuffer());
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const events: Array<{ type: string; delta?: { text?: string } }> = [];
    for (let at = 0; at < bytes.length; ) {
      const length = new DataView(bytes.buffer, at, 4).getUint32(0);
      const message = codec.decode(bytes.subarray(at, at + length));
      expect(message.headers[':event-type']?.value).toBe('chunk');
      events.push(JSON.parse(Buffer.from(JSON.parse(toUtf8(message.body)).bytes, 'base64').toString('utf8')));
      at += length;
    }
    expect(events[0]!.type).toBe('message_start');
    expect(events.at(-1)!.type).toBe('message_stop');
    expect(events.map((event) => event.delta?.text ?? '').join('')).toBe('SWITCHYARD_PLAIN_OK');
  });

  it('refuses a wrong signature as AWS does', async () => {
    const response = await invoke(bedrockTurn, { secret: 'not-the-secret-at-all' });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/);
    expect(await response.json()).toEqual({ message: expect.stringContaining('signature we calculated does not match') });
  });

  it('refuses a body with stream or model, without the Bedrock anthropic_version, or with a beta Bedrock does not take', async () => {
    const refusal = async (body: unknown) => {
      const response = await invoke(body);
      expect(response.status).toBe(400);
      expect(response.headers.get('x-amzn-errortype')).toMatch(/^ValidationException:/);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await refusal({ ...bedrockTurn, stream: true })).toContain('extraneous key [stream] is not permitted');
    expect(await refusal({ ...bedrockTurn, model: 'claude-sonnet-4-5' })).toContain('extraneous key [model] is not permitted');
    expect(await refusal(plainTurn)).toContain('anthropic_version');
    expect(await refusal({ ...bedrockTurn, anthropic_beta: ['claude-code-20250219'] })).toBe('invalid beta flag');
    expect((await invoke({ ...bedrockTurn, anthropic_beta: ['interleaved-thinking-2025-05-14'] })).status).toBe(200);
  });
});
