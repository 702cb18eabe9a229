/**
 * How a bedrock request is authorised. With `auth: sigv4` (the default) the
 * channel's key is AWS access keys and each request is signed with AWS
 * Signature Version 4 for the `bedrock` service in the channel's region, by
 * the maintained signer (`@smithy/signature-v4`, the AWS SDK's own; it keeps
 * the day's signing key). With `auth: api-key` the key is a Bedrock API key,
 * sent as a Bearer token.
 *
 * The signature covers the method, the path, the query, the `host`,
 * `content-type` and `x-amz-*` headers and the body's SHA-256, so it is made
 * last, over the body as it is sent. A key that is no access key pair is the
 * channel's credential refused (a 401 to the breakers: the key is benched),
 * with a message that never repeats the key.
 */
import type { SignatureV4 } from '@smithy/signature-v4';
import { awsSdk, type AwsSdk } from '../aws-sdk.js';
import type { RequestHeaders } from '../endpoint.js';
import type { UpstreamCall } from '../types.js';
import { awsCredentials, type AwsCredentials } from './credentials.js';
import { bedrockSettingsOf } from './settings.js';

export type { AwsCredentials } from './credentials.js';

export const BEDROCK_SERVICE = 'bedrock';

/** Signers kept at most (one per key and region; keys rotated out of every channel are forgotten first). */
const MAX_SIGNERS = 512;
const signers = new Map<string, SignatureV4>();

/** The headers with the call's credential: a Bearer API key at once, or (by default) a SigV4 signature over the request as it will be sent. */
export function authorizedHeaders(call: UpstreamCall, url: string, headers: RequestHeaders, body: string | Buffer): Promise<RequestHeaders> {
  const settings = bedrockSettingsOf(call.channel);
  if (settings.auth === 'api-key') {
    headers.authorization = `Bearer ${call.apiKey}`;
    return Promise.resolve(headers);
  }
  const sdk = awsSdk();
  if (sdk instanceof Promise) return sdk.then((loaded) => signedHeaders(signerFor(loaded, call.apiKey, settings.region, call.channel.name), url, headers, body));
  return signedHeaders(signerFor(sdk, call.apiKey, settings.region, call.channel.name), url, headers, body);
}

/**
 * The headers of a request signed by `signer`: `x-amz-date`, the session
 * token where the credentials have one, and `authorization`. `host` is
 * signed but not returned (undici sets it from the URL). `signingDate` and
 * `method` for the documentation's examples; now and POST otherwise.
 */
export async function signedHeaders(signer: SignatureV4, url: string, headers: RequestHeaders, body: string | Buffer, signingDate?: Date, method = 'POST'): Promise<RequestHeaders> {
  const address = new URL(url);
  headers.host = address.host;
  const query: Record<string, string> = {};
  for (const [name, value] of address.searchParams) query[name] = value;
  const signed = await signer.sign(
    {
      method,
      protocol: address.protocol,
      hostname: address.hostname,
      port: address.port ? Number(address.port) : undefined,
      path: address.pathname,
      query,
      headers,
      body,
    },
    signingDate ? { signingDate } : undefined,
  );
  delete signed.headers.host;
  return signed.headers;
}

/**
 * The signer of a set of credentials for a service in a region. The path is
 * signed escaped once more, as every AWS service but S3 wants; no
 * `x-amz-content-sha256` header (Bedrock, like most services, hashes the body
 * itself).
 */
export function awsSigner(sdk: AwsSdk, credentials: AwsCredentials, region: string, service: string = BEDROCK_SERVICE): SignatureV4 {
  return new sdk.SignatureV4({ service, region, credentials, sha256: sdk.Hash.bind(null, 'sha256'), applyChecksum: false, uriEscapePath: true });
}

function signerFor(sdk: AwsSdk, key: string, region: string, channel: string): SignatureV4 {
  const id = `${region}\n${key}`;
  let signer = signers.get(id);
  if (signer === undefined) {
    signer = awsSigner(sdk, awsCredentials(key, channel), region);
    if (signers.size >= MAX_SIGNERS) signers.delete(signers.keys().next().value as string);
    signers.set(id, signer);
  }
  return signer;
}
