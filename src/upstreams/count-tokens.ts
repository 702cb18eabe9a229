/**
 * The counting call every native upstream makes the same way: post the
 * client's body to the upstream's counting endpoint, keep the answer's bytes
 * for the client, and read the count from them. Each adapter names its URL,
 * headers, error mapping and where the count sits in its answer.
 */
import { GatewayError } from '../core/errors.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader } from './headers.js';
import { readBodyLimited, requestOk } from './http.js';
import type { CountTokensResult, UpstreamCall } from './types.js';
import { callExchange } from './call-exchange.js';

/** A count answer is a few dozen bytes; anything this large is not one. */
const MAX_COUNT_BODY_BYTES = 256 * 1024;

export interface CountRequestOptions {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** The count in the parsed answer, or undefined when the answer holds none. */
  readCount: (answer: Record<string, unknown>) => number | undefined;
  /** How a non-2xx answer becomes an error; the common one by default. */
  throwFor?: StatusThrower;
}

export async function requestCount(options: CountRequestOptions, call: UpstreamCall): Promise<CountTokensResult> {
  const res = await requestOk(callExchange(call, options.url, options.headers, options.body, options.throwFor));
  const body = await readBodyLimited(res.body, MAX_COUNT_BODY_BYTES, 'the count answer', call.signal);
  const inputTokens = countIn(body, options.readCount);
  if (inputTokens === undefined) {
    throw new GatewayError('upstream_error', 'upstream answered the count without a token count', { retryable: true });
  }
  return { status: res.status, contentType: firstHeader(res.headers, 'content-type') ?? 'application/json', body, inputTokens };
}

function countIn(body: Buffer, readCount: CountRequestOptions['readCount']): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const count = readCount(parsed as Record<string, unknown>);
  return count !== undefined && Number.isInteger(count) && count >= 0 ? count : undefined;
}

/** A whole-number field of the answer. */
export function integerField(answer: Record<string, unknown>, name: string): number | undefined {
  const value = answer[name];
  return typeof value === 'number' ? value : undefined;
}
