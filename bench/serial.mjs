/**
 * Serial keep-alive latency: one connection, one request at a time, so the
 * numbers are per-request cost without queueing. Warm-up requests first
 * (JIT, connection set-up), then `count` timed ones.
 *
 * Reports, in µs: p50 and p99 of the total time (request sent → body ended)
 * and p50 / p99 of the time to first byte (the first body chunk: for SSE,
 * the first event).
 *
 *   node bench/serial.mjs <url> [--count 3000] [--warmup 200] [--stream]
 *        [--model pass-model] [--body '<json>'] [--header name=value]…
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { loopbackUrl } from './lib/loopback.mjs';
import { combinedLoad } from './lib/cpu-noise.mjs';

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function oneRequest(agent, url, headers, body, timeoutMs) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    let firstByte = 0n;
    const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers }, (res) => {
      let sample = '';
      res.on('data', (chunk) => {
        if (firstByte === 0n) firstByte = process.hrtime.bigint();
        if (res.statusCode !== 200 && sample.length < 300) sample += chunk.toString('utf8');
      });
      res.on('end', () => {
        const end = process.hrtime.bigint();
        if (firstByte === 0n) firstByte = end;
        resolve({
          status: res.statusCode,
          totalUs: Number(end - start) / 1000,
          ttfbUs: Number(firstByte - start) / 1000,
          sample,
        });
      });
      res.on('error', (error) => resolve({ status: 0, sample: error.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ status: 0, sample: error.message }));
    req.end(body);
  });
}

/**
 * Runs the serial measurement against one loopback URL.
 * Stops early after `maxErrors` failed requests or `timeLimitMs` of timed requests.
 */
export async function runSerial({ url, body, headers = {}, warmup = 200, count = 3000, timeLimitMs = 60_000, requestTimeoutMs = 10_000, maxErrors = 10, keepSamples = false }) {
  const target = loopbackUrl(url);
  const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const allHeaders = { 'content-type': 'application/json', ...headers, 'content-length': payload.length };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const totals = [];
  const ttfbs = [];
  const errors = [];
  try {
    for (let i = 0; i < warmup && errors.length < maxErrors; i++) {
      const result = await oneRequest(agent, target, allHeaders, payload, requestTimeoutMs);
      if (result.status !== 200) errors.push(`${result.status}: ${result.sample}`);
    }
    const deadline = Date.now() + timeLimitMs;
    for (let i = 0; i < count && errors.length < maxErrors && Date.now() < deadline; i++) {
      const result = await oneRequest(agent, target, allHeaders, payload, requestTimeoutMs);
      if (result.status !== 200) {
        errors.push(`${result.status}: ${result.sample}`);
        continue;
      }
      totals.push(result.totalUs);
      ttfbs.push(result.ttfbUs);
    }
  } finally {
    agent.destroy();
  }
  totals.sort((a, b) => a - b);
  ttfbs.sort((a, b) => a - b);
  const round = (value) => Math.round(value);
  return {
    url: target.href,
    count: totals.length,
    errors: errors.length,
    firstError: errors[0],
    p50Us: round(percentile(totals, 50)),
    p99Us: round(percentile(totals, 99)),
    ttfbP50Us: round(percentile(ttfbs, 50)),
    ttfbP99Us: round(percentile(ttfbs, 99)),
    // Each request's times, for combining several runs of one target (`combineSerial`).
    ...(keepSamples ? { totalsUs: totals, ttfbsUs: ttfbs } : {}),
  };
}

/**
 * One result from several runs of one target (made with `keepSamples`): the
 * percentiles of all their requests together. Other processes' CPU share is
 * the highest any run saw (`combinedLoad`).
 */
export function combineSerial(runs) {
  const totals = runs.flatMap((run) => run.totalsUs).sort((a, b) => a - b);
  const ttfbs = runs.flatMap((run) => run.ttfbsUs).sort((a, b) => a - b);
  return {
    url: runs[0].url,
    count: totals.length,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    firstError: runs.find((run) => run.firstError)?.firstError,
    p50Us: Math.round(percentile(totals, 50)),
    p99Us: Math.round(percentile(totals, 99)),
    ttfbP50Us: Math.round(percentile(ttfbs, 50)),
    ttfbP99Us: Math.round(percentile(ttfbs, 99)),
    runs: runs.length,
    ...combinedLoad(runs),
  };
}

function parseArgs(argv) {
  const options = { headers: {}, stream: false, model: 'pass-model' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--count') options.count = Number(next());
    else if (arg === '--warmup') options.warmup = Number(next());
    else if (arg === '--stream') options.stream = true;
    else if (arg === '--model') options.model = next();
    else if (arg === '--body') options.body = next();
    else if (arg === '--header') {
      const [name, ...rest] = next().split('=');
      options.headers[name] = rest.join('=');
    } else if (!options.url) options.url = arg;
    else throw new Error(`unexpected argument ${arg}`);
  }
  if (!options.url) throw new Error('usage: node bench/serial.mjs <url> [--count N] [--warmup N] [--stream] [--model M] [--body JSON] [--header k=v]');
  options.body ??= {
    model: options.model,
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hi' }],
    ...(options.stream ? { stream: true } : {}),
  };
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { stream: _stream, model: _model, ...options } = parseArgs(process.argv.slice(2));
    const result = await runSerial(options);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    process.exitCode = result.errors > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`serial: ${error.message}\n`);
    process.exitCode = 2;
  }
}
