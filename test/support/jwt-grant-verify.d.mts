/** The types of jwt-grant-verify.mjs (plain JavaScript, shared with the agent harness's fakes). */
import type { KeyObject } from 'node:crypto';

export const CLOUD_PLATFORM: string;

export interface GrantExpected {
  /** The public half of the service account's key. */
  publicKey: KeyObject;
  /** The account the assertion must name as issuer. */
  clientEmail: string;
  /** The token endpoint the assertion must name as audience. */
  tokenUri: string;
}

/** Why the token endpoint would refuse this JWT-bearer grant, or undefined when it takes it. */
export function jwtGrantRefusal(form: URLSearchParams, expected: GrantExpected): string | undefined;
