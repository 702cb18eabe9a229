/**
 * Signature Version 4 as the bedrock type sets it up, checked against AWS's
 * published signing examples (the Signature Version 4 test suite's
 * `get-vanilla` and `post-x-www-form-urlencoded`, and the IAM `ListUsers`
 * example of the signing documentation; all with the documentation's example
 * credentials and its 2015-08-30T12:36:00Z clock), and the fakes' verifier
 * (test/support/sigv4-verify.mjs, written apart from the signer) against the
 * same examples, so that neither can drift into agreeing with the other alone.
 */
import { describe, expect, it } from 'vitest';
import { awsSdk } from '../../../src/upstreams/aws-sdk.js';
import { awsCredentials, bedrockKeyProblem, parseAwsCredentials } from '../../../src/upstreams/bedrock/credentials.js';
import { awsSigner, signedHeaders } from '../../../src/upstreams/bedrock/signing.js';
import { sigv4Problem, type SigningSecret } from '../../support/sigv4-verify.mjs';
import { GatewayError, isCredentialRefusal } from '../../../src/core/errors.js';

const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const WHEN = new Date('2015-08-30T12:36:00Z');
const secrets = new Map<string, SigningSecret>([[EXAMPLE.accessKeyId, { secretAccessKey: EXAMPLE.secretAccessKey }]]);

const examples: Array<{ name: string; service: string; method: string; url: string; headers: Record<string, string>; body: string; authorization: string }> = [
  {
    name: 'get-vanilla',
    service: 'service',
    method: 'GET',
    url: 'https://example.amazonaws.com/',
    headers: {},
    body: '',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
  },
  {
    name: 'post-x-www-form-urlencoded',
    service: 'service',
    method: 'POST',
    url: 'https://example.amazonaws.com/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'Param1=value1',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
  },
  {
    name: 'IAM ListUsers (the signing documentation)',
    service: 'iam',
    method: 'GET',
    url: 'https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: '',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
  },
];

describe('the gateway’s signer', () => {
  for (const example of examples) {
    it(`signs AWS's ${example.name} example as published`, async () => {
      const signer = awsSigner(await awsSdk(), EXAMPLE, 'us-east-1', example.service);
      const headers = await signedHeaders(signer, example.url, { ...example.headers }, example.body, WHEN, example.method);
      expect(headers['x-amz-date']).toBe('20150830T123600Z');
      expect(headers.authorization).toBe(example.authorization);
      expect(headers).not.toHaveProperty('host');
    });
  }

  it('signs a temporary key’s session token', async () => {
    const signer = awsSigner(await awsSdk(), { ...EXAMPLE, sessionToken: 'session-token-example' }, 'us-west-2');
    const headers = await signedHeaders(signer, 'https://bedrock-runtime.us-west-2.amazonaws.com/model/x/invoke', { 'content-type': 'application/json' }, '{}');
    expect(headers['x-amz-security-token']).toBe('session-token-example');
    expect(headers.authorization).toMatch(/SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,/);
  });
});

describe('the fakes’ verifier', () => {
  for (const example of examples) {
    it(`accepts AWS's ${example.name} example and refuses it altered`, () => {
      const { pathname, search, host } = new URL(example.url);
      const request = {
        method: example.method,
        url: `${pathname}${search}`,
        headers: { ...example.headers, host, 'x-amz-date': '20150830T123600Z', authorization: example.authorization },
        body: example.body,
      };
      const expected = { region: 'us-east-1', service: example.service, now: WHEN };
      expect(sigv4Problem(request, secrets, expected)).toBeUndefined();
      expect(sigv4Problem({ ...request, body: `${example.body} ` }, secrets, expected)).toMatch(/signature we calculated does not match/);
      expect(sigv4Problem(request, secrets, { ...expected, now: new Date(WHEN.getTime() + 6 * 60_000) })).toBe('Signature expired');
      expect(sigv4Problem(request, new Map([[EXAMPLE.accessKeyId, { secretAccessKey: 'other' }]]), expected)).toMatch(/does not match/);
    });
  }

  it('accepts what the gateway signs for a Bedrock model whose id needs escaping, and a tampered path fails', async () => {
    const signer = awsSigner(await awsSdk(), EXAMPLE, 'eu-central-1');
    const url = 'http://127.0.0.1:9/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream';
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [] });
    const headers = await signedHeaders(signer, url, { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' }, body);
    const request = { method: 'POST', url: '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', headers: { ...headers, host: '127.0.0.1:9' }, body };
    expect(sigv4Problem(request, secrets, { region: 'eu-central-1', service: 'bedrock' })).toBeUndefined();
    expect(sigv4Problem({ ...request, url: request.url.replace('invoke-with-response-stream', 'invoke') }, secrets, { region: 'eu-central-1', service: 'bedrock' })).toMatch(/does not match/);
    expect(sigv4Problem(request, secrets, { region: 'us-east-1', service: 'bedrock' })).toMatch(/scoped/);
  });
});

describe('AWS credentials in a channel key', () => {
  it('reads ID:SECRET, ID:SECRET:TOKEN and JSON in either spelling', () => {
    expect(parseAwsCredentials('AKID:secret/with+chars')).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret/with+chars' });
    expect(parseAwsCredentials('ASIA:secret:token==')).toEqual({ accessKeyId: 'ASIA', secretAccessKey: 'secret', sessionToken: 'token==' });
    expect(parseAwsCredentials('{"accessKeyId":"A","secretAccessKey":"S"}')).toEqual({ accessKeyId: 'A', secretAccessKey: 'S' });
    expect(parseAwsCredentials('{"AccessKeyId":"A","SecretAccessKey":"S","SessionToken":"T"}')).toEqual({ accessKeyId: 'A', secretAccessKey: 'S', sessionToken: 'T' });
  });

  it('says why anything else can never sign, never repeating the key: when written, and as a refused credential when used', () => {
    for (const key of ['just-one-part', 'a::c', '{"accessKeyId":"A"}', '{not json']) {
      const problem = bedrockKeyProblem(key, {});
      expect(problem).toMatch(/^is /);
      expect(problem).not.toContain(key);
      let error: unknown;
      try {
        awsCredentials(key, 'bedrock-main');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect(isCredentialRefusal(error as GatewayError)).toBe(true);
      expect((error as GatewayError).message).toContain('bedrock-main');
      expect((error as GatewayError).message).not.toContain(key);
    }
    expect(bedrockKeyProblem('ABSKanything', { auth: 'api-key' })).toBeUndefined();
  });
});
