/** One-off loopback requests: readiness polling, cold-start timing and sanity checks. */
import http from 'node:http';
import { loopbackUrl } from './loopback.mjs';

/** Sends one request on a fresh connection; resolves with status and body text (status 0 on a socket error). */
export function requestOnce(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  const target = loopbackUrl(url);
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const allHeaders = payload ? { 'content-type': 'application/json', ...headers, 'content-length': payload.length } : headers;
  return new Promise((resolve) => {
    const req = http.request({ agent: false, host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers: allHeaders }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => resolve({ status: 0, body: error.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
    req.end(payload);
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Repeats a request until it answers 200, at most `timeoutMs`. Returns the
 * answer; gives up (throws) when `isDead()` says the server process is gone.
 */
export async function pollUntil200(url, options = {}, { timeoutMs = 15_000, intervalMs = 2, isDead = () => false } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await requestOnce(url, options);
    if (last.status === 200) return last;
    if (isDead()) throw new Error(`server exited while polling ${url}`);
    await pause(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last?.status} ${last?.body?.slice(0, 200)})`);
}
