/** The types of sigv4-verify.mjs (plain JavaScript, shared with the agent harness's fakes). */
import type { IncomingHttpHeaders } from 'node:http';

export interface SigningSecret {
  secretAccessKey: string;
  /** The session token the request must carry (temporary credentials). */
  sessionToken?: string;
}

export interface SignedRequest {
  method: string;
  /** The path and query as sent (`/model/anthropic.claude-x%3A0/invoke`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer | string;
}

export interface Expected {
  region: string;
  service: string;
  /** The signer's clock must be within this of `now` (AWS allows five minutes). */
  skewMs?: number;
  now?: Date;
}

/** Undefined when the signature holds, else why the service would refuse it. */
export function sigv4Problem(request: SignedRequest, secrets: ReadonlyMap<string, SigningSecret>, expected: Expected): string | undefined;

/** The canonical request AWS hashes into the string to sign. */
export function canonicalRequest(request: SignedRequest, signedHeaders: readonly string[], payloadHash: string): string;
