/** An upstream answer's headers, and the few the gateway reads from them. */

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

function headerValue(headers: UpstreamHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `retry-after-ms`, then `retry-after` as seconds or as an HTTP date; whole seconds, rounded up. */
export function retryAfterFromHeaders(headers: UpstreamHeaders, now = Date.now()): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms) / 1000);
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** First value of a request header that may have been sent several times. */
export function firstHeader(headers: UpstreamHeaders, name: string): string | undefined {
  return headerValue(headers, name);
}
