/**
 * The hard case alone (issue 37), without the rest of `npm run bench`: the
 * floor proxy and the gateway's pass-through and translated Messages paths,
 * each pinned to core 0 and loaded at c=50 from core 1 (wrk when installed),
 * alternating round by round. See lib/hard-case.mjs for what is measured.
 *
 *   node bench/hard-case.mjs [--rounds 3] [--seconds 5] [--warmup 2] [--paths pass,translated]
 *
 * BENCH_NODE runs the floor and the gateway under another Node (the load
 * generator and the fake upstream stay on this one); BENCH_ENTRY another
 * build of the bundle.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionOf } from './lib/gateway.mjs';
import { measureHardCase, startHardCaseServers } from './lib/hard-case.mjs';
import { cleanUpOnExit, pinSelf, runMain, stopAll } from './lib/processes.mjs';
import { renderHardCase } from './lib/report.mjs';
import { defineTargets } from './lib/targets.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const entry = resolve(process.env.BENCH_ENTRY || join(benchDir, '..', 'dist', 'bundle', 'main.js'));
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const whole = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number ≥ 1`);
  return value;
};

async function main() {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
  const rounds = whole('rounds', 3);
  const seconds = whole('seconds', 5);
  const warmupSeconds = whole('warmup', 2);
  const paths = option('paths', 'pass,translated').split(',').filter(Boolean);
  pinSelf(1);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-hard-'));
  tmpRoots.push(tmpRoot);
  try {
    const { upstream, upstreamUrl, floor, gateway } = await startHardCaseServers({ entry, tmpRoot });
    const targets = defineTargets({ families: ['C'], upstreamUrl, gatewayUrl: gateway.baseUrl, floorUrl: floor.url });
    const byKey = (key) => {
      const target = targets.find((t) => t.key === key);
      if (!target) throw new Error(`unknown path ${key}`);
      return target;
    };
    const servers = [
      { key: 'floor', label: 'reference floor', target: byKey('floor'), pid: floor.child.pid },
      ...paths.map((path) => ({ key: path, label: `gateway ${path}`, target: byKey(`gateway-${path}`), pid: gateway.child.pid })),
    ];
    const hardCase = await measureHardCase({ servers, upstreamPid: upstream.pid, rounds, seconds, warmupSeconds, scriptDir: tmpRoot, log: (line) => process.stderr.write(`[hard-case] ${line}\n`) });
    process.stdout.write(`${renderHardCase(hardCase, nodeVersionOf())}\n`);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

/** Temporary directories of this run, removed at exit whatever the path out. */
const tmpRoots = cleanUpOnExit('hard-case');

runMain('hard-case', main);
