/**
 * A/B of gateway builds on one path: the gateway's CPU time per request
 * (from /proc, steadier than req/s on a shared machine) and req/s at c=50,
 * builds alternating round by round against one fake upstream, with the
 * floor proxy measured in the same rounds as the yardstick.
 *
 *   node bench/ab.mjs <bundle main.js>[,<another>…] [--path pass] [--rounds 5] [--amount 20000]
 *
 * A build may carry Node options after a `|`: `dist/bundle/main.js|--max-semi-space-size=32`.
 * BENCH_NODE runs the builds and the floor under another Node (the load stays on this one).
 * `--fixture <file>` sends a recorded client body instead of the small one (a
 * JSON file with a `body`, such as test/fixtures/agents/…), with the path's
 * model and `stream`, to the floor and the gateway alike.
 *
 * `--path` is a target of `lib/targets.mjs` without `gateway-`: pass,
 * translated, gem-native, resp-native, chat-pass, … (add `-stream`). Build
 * the variant to compare with `node scripts/bundle.mjs <dir>` from another
 * checkout, then pass both `main.js` files. Prints the medians per build.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs } from './lib/cpu-noise.mjs';
import { spawnGateway, startFloor, waitHealthy, writeGatewayConfig } from './lib/gateway.mjs';
import { killAllNow, memoryOf, pinSelf, spawnPinned, stopAll, stopProcess, waitForOutput } from './lib/processes.mjs';
import { median } from './lib/report.mjs';
import { defineTargets, parseFamilies } from './lib/targets.mjs';
import { runAutocannon } from './lib/throughput.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};

/** One measured run: CPU µs per request of `pid` and req/s, after a warm-up at c=10. */
async function measure(target, pid, amount) {
  await runAutocannon({ ...target, amount: 3000, connections: 10 });
  const before = cpuTimeMs(pid);
  const result = await runAutocannon({ ...target, amount, connections: 50 });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${failures} failed requests on ${target.url}`);
  return { cpuUs: ((cpuTimeMs(pid) - before) * 1000) / result.requests, rps: result.rps, rssMb: memoryOf(pid).rssMb };
}

async function main() {
  const entries = (process.argv[2] ?? '').split(',').filter(Boolean);
  const path = option('path', 'pass');
  const rounds = Number(option('rounds', 5));
  const amount = Number(option('amount', 20_000));
  if (entries.length === 0 || !Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(amount) || amount < 1) {
    throw new Error('usage: node bench/ab.mjs <main.js>[,<main.js>…] [--path pass] [--rounds 5] [--amount 20000]');
  }
  pinSelf(1);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-ab-'));
  const results = new Map([['floor', []], ...entries.map((entry) => [entry, []])]);
  try {
    const upstream = spawnPinned(1, process.execPath, [join(benchDir, 'fake-upstream.mjs'), '0']);
    const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    // Under BENCH_NODE when set, as the builds.
    const { child: floor, url: floorUrl } = await startFloor({ core: 0, upstreamUrl });
    const configPath = writeGatewayConfig(tmpRoot, upstreamUrl);
    const fixture = option('fixture', undefined);
    const recorded = fixture && JSON.parse(readFileSync(fixture, 'utf8'));
    // The recorded body, with the measured path's model and stream flag.
    const withBody = (target) => {
      if (!recorded) return target;
      const body = { ...(recorded.body ?? recorded), model: target.body.model };
      delete body.stream;
      return { ...target, body: target.body.stream ? { ...body, stream: true } : body };
    };
    const targetsAt = (gatewayUrl) => defineTargets({ families: parseFamilies(''), upstreamUrl, gatewayUrl, floorUrl }).map(withBody);
    const floorTarget = targetsAt(floorUrl).find((t) => t.key === (path.endsWith('-stream') ? 'floor-stream' : 'floor'));
    if (!targetsAt(floorUrl).some((t) => t.key === `gateway-${path}`)) throw new Error(`unknown path ${path}`);
    for (let round = 0; round < rounds; round++) {
      results.get('floor').push(await measure(floorTarget, floor.pid, amount));
      // Alternate the order each round, so neither build always runs first.
      const order = round % 2 === 0 ? entries : [...entries].reverse();
      for (const entry of order) {
        const [file, ...nodeArgs] = entry.split(/[| ]/).filter(Boolean);
        const gateway = await spawnGateway({ entry: resolve(file), core: 0, tmpRoot, configPath, nodeArgs });
        await waitHealthy(gateway);
        const target = targetsAt(gateway.baseUrl).find((t) => t.key === `gateway-${path}`);
        results.get(entry).push(await measure(target, gateway.child.pid, amount));
        await stopProcess(gateway.child);
      }
      process.stderr.write(`round ${round + 1}/${rounds} done\n`);
    }
    await stopProcess(floor);
    await stopProcess(upstream);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
  const floorRps = median(results.get('floor').map((r) => r.rps));
  process.stdout.write(`path ${path}${option('fixture', '') && `, body of ${option('fixture')}`}, ${rounds} rounds of ${amount} requests at c=50 (medians; CPU per request of the serving process)\n`);
  for (const [name, runs] of results) {
    const rps = median(runs.map((r) => r.rps));
    const cpu = runs.map((r) => r.cpuUs);
    const ratio = name === 'floor' ? '' : `, ${(rps / floorRps).toFixed(2)}× floor`;
    const rss = Math.round(median(runs.map((r) => r.rssMb)));
    process.stdout.write(`${name}: ${Math.round(median(cpu))} µs CPU/req (${Math.round(Math.min(...cpu))}–${Math.round(Math.max(...cpu))}), ${rps} req/s${ratio}, RSS ${rss} MB after the run\n`);
  }
}

process.on('SIGINT', () => {
  killAllNow();
  process.exit(130);
});
main().catch((error) => {
  killAllNow();
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
