/**
 * A JSONL answer read line by line as it arrives (an upstream batch's result
 * file): each line parsed as a JSON object (a line that is not one is
 * skipped), a character split between two chunks joined, not broken, and
 * one line at most `MAX_LINE_BYTES` long. A non-2xx answer is the
 * GatewayError it describes, with the credentials masked.
 */
import { StringDecoder } from 'node:string_decoder';
import { CallAbort } from '../core/call-signal.js';
import { GatewayError } from '../core/errors.js';
import { requestOk, toUpstreamError } from './http.js';

const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface JsonlRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  secrets: readonly string[];
}

export async function* jsonlLines(request: JsonlRequest): AsyncGenerator<Record<string, unknown>> {
  const signal = new CallAbort();
  const response = await requestOk({ url: request.url, method: 'GET', headers: request.headers, signal, timeoutMs: request.timeoutMs, bodyTimeoutMs: request.timeoutMs, secrets: request.secrets });
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of response.body) {
      rest += decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n', start)) {
        const parsed = parseLine(rest.slice(start, end));
        start = end + 1;
        if (parsed) yield parsed;
      }
      rest = rest.slice(start);
      if (rest.length > MAX_LINE_BYTES) throw new GatewayError('upstream_error', 'the upstream result file has a line over the size bound', { retryable: false });
    }
    rest += decoder.end();
  } catch (error) {
    throw toUpstreamError(error, signal);
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
  const last = parseLine(rest);
  if (last) yield last;
}

function parseLine(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
