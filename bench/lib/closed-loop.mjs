/**
 * A fixed number of requests over a fixed number of keep-alive connections,
 * each connection sending its next request once the last answer is read to
 * its end (a closed loop, as `hey -n -c` drives a server). Every request's
 * time, to the answer's last byte, is kept in microseconds: autocannon
 * rounds latencies to whole milliseconds, too coarse for a 1–2 ms p50.
 */
import { Pool } from 'undici';
import { loopbackUrl } from './loopback.mjs';

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * POSTs `body` to `url` `amount` times over `connections` connections.
 * Answers requests, errors (a non-2xx answer counts as one), seconds, req/s,
 * and p50 / p99 in ms (µs precision). Refuses URLs that are not on loopback.
 */
export async function runClosedLoop({ url, headers = {}, body, amount, connections, timeoutMs = 10_000 }) {
  const target = loopbackUrl(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const requestHeaders = { 'content-type': 'application/json', ...headers };
  const path = target.pathname + target.search;
  const latencies = new Float64Array(amount);
  let sent = 0;
  let done = 0;
  let errors = 0;
  const worker = async () => {
    while (sent < amount) {
      sent++;
      const start = process.hrtime.bigint();
      try {
        const answer = await pool.request({ path, method: 'POST', headers: requestHeaders, body: payload });
        // Read to the end: a stream's time is its last event's.
        for await (const _chunk of answer.body);
        if (answer.statusCode >= 300) errors++;
      } catch {
        errors++;
      }
      latencies[done++] = Number(process.hrtime.bigint() - start) / 1e6;
    }
  };
  const startedAt = process.hrtime.bigint();
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
  }
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const sorted = latencies.subarray(0, done).sort();
  const round = (ms) => Math.round(ms * 1000) / 1000;
  return { requests: done, errors, seconds, rps: Math.round(done / seconds), p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) };
}
