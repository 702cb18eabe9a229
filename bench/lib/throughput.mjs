/**
 * Throughput at fixed concurrency: autocannon (in-process, a fixed number
 * of requests) and, when installed, wrk (a fixed duration; it is the better
 * load generator, as autocannon on one core tops out near 10 k req/s).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loopbackUrl } from './loopback.mjs';
import { spawnPinned, stopProcess } from './processes.mjs';
import { combinedLoad } from './cpu-noise.mjs';
import { median } from './report.mjs';

/** `amount` requests over `connections` keep-alive connections; stopped after `timeLimitMs` whatever happens. */
export function runAutocannon({ url, headers, body, amount = 20_000, connections = 50, timeLimitMs = 60_000 }) {
  loopbackUrl(url);
  return new Promise((resolve, reject) => {
    let timer;
    const instance = autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        amount,
        connections,
        timeout: 10,
        // The run's duration is only read at sample ticks: sample often so short runs are timed well.
        sampleInt: 20,
      },
      (error, result) => {
        clearTimeout(timer);
        if (error) return reject(error);
        const completed = result.requests.total;
        resolve({
          requests: completed,
          durationS: result.duration,
          rps: Math.round(completed / result.duration),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    timer = setTimeout(() => instance.stop(), timeLimitMs);
  });
}

export const hasWrk = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

function luaString(text) {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function toUs(value, unit) {
  const scale = { us: 1, ms: 1000, s: 1_000_000, m: 60_000_000 }[unit];
  return Math.round(Number(value) * scale);
}

function parseWrk(output) {
  const rps = Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const latency = (pct) => {
    const match = output.match(new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm'));
    return match ? toUs(match[1], match[2]) / 1000 : NaN;
  };
  const total = Number(output.match(/(\d+) requests in/)?.[1]);
  const non2xx = Number(output.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const socketErrors = output.match(/Socket errors:\s+connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { requests: total, rps: Math.round(rps), p50Ms: latency(50), p99Ms: latency(99), non2xx, errors };
}

/**
 * wrk -t1 -c<connections> for `seconds`, pinned to `core`; null when wrk is
 * not installed. A POST of `body` to `url`, or, with `paths`, a GET of one
 * of them picked at random per request (`url` then gives only the origin).
 */
export async function runWrk({ url, headers, body, paths, seconds = 8, connections = 50, core, scriptDir }) {
  if (!hasWrk) return null;
  loopbackUrl(url);
  const script = join(scriptDir, `wrk-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`);
  const lines = paths
    ? [`paths = {${paths.map(luaString).join(',')}}`, 'request = function() return wrk.format("GET", paths[math.random(#paths)]) end']
    : ['wrk.method = "POST"', `wrk.body = ${luaString(typeof body === 'string' ? body : JSON.stringify(body))}`];
  for (const [name, value] of Object.entries({ ...(paths ? {} : { 'content-type': 'application/json' }), ...headers })) {
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  }
  writeFileSync(script, lines.join('\n') + '\n');
  const child = spawnPinned(core, 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', script, url]);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString('utf8')));
  const guard = setTimeout(() => stopProcess(child), (seconds + 15) * 1000);
  const { code } = await child.exited;
  clearTimeout(guard);
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${child.outputTail}`);
  return { seconds, ...parseWrk(output) };
}

/**
 * One wrk result from several runs of one target: requests and seconds added
 * up (so req/s is over all of them), the server's CPU per request over all of
 * them, the median of the runs' p50 and the worst p99.
 */
export function combineWrk(runs) {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const cpuMs = runs.reduce((sum, run) => sum + run.serverCpuMs, 0);
  return {
    seconds,
    requests,
    rps: Math.round(requests / seconds),
    p50Ms: Math.round(median(runs.map((run) => run.p50Ms)) * 100) / 100,
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    serverCpuUsPerRequest: Math.round((cpuMs * 1000) / requests),
    runs: runs.length,
    ...combinedLoad(runs),
  };
}
