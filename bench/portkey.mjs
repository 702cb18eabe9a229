/**
 * The gateway beside Portkey's open-source gateway in the hard case of issue
 * 37 (lib/hard-case.mjs): each server alone on core 0 under wrk at c=50 on
 * core 1, alternating round by round, with the floor proxy as the yardstick.
 * Two paths each: Messages passed through to an Anthropic upstream, and Chat
 * Completions translated to one. Portkey is installed from the npm registry
 * on first use (lib/portkey.mjs); without the registry the script says so
 * and stops.
 *
 *   node bench/portkey.mjs [--rounds 3] [--seconds 5] [--warmup 2]
 *
 * BENCH_NODE runs the floor, the gateway and Portkey under another Node.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionOf } from './lib/gateway.mjs';
import { measureHardCase, startHardCaseServers } from './lib/hard-case.mjs';
import { installPortkey, portkeyTargets, startPortkey } from './lib/portkey.mjs';
import { cleanUpOnExit, pinSelf, runMain, stopAll } from './lib/processes.mjs';
import { renderHardCase } from './lib/report.mjs';
import { defineTargets } from './lib/targets.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const entry = resolve(process.env.BENCH_ENTRY || join(benchDir, '..', 'dist', 'bundle', 'main.js'));
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = Number(index === -1 ? fallback : process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number ≥ 1`);
  return value;
};

async function main() {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
  const log = (line) => process.stderr.write(`[portkey] ${line}\n`);
  const portkey = installPortkey(log);
  if (portkey.error) {
    process.stdout.write(`Portkey not measured: ${portkey.error}\n`);
    return;
  }
  pinSelf(1);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-portkey-'));
  tmpRoots.push(tmpRoot);
  try {
    const { upstream, upstreamUrl, floor, gateway } = await startHardCaseServers({ entry, tmpRoot });
    const peer = await startPortkey({ script: portkey.script, core: 0 });
    const ours = defineTargets({ families: ['C', 'F'], upstreamUrl, gatewayUrl: gateway.baseUrl, floorUrl: floor.url });
    const byKey = (key) => ours.find((target) => target.key === key);
    const theirs = portkeyTargets(peer.url, upstreamUrl);
    const servers = [
      { key: 'floor', label: 'reference floor', target: byKey('floor'), pid: floor.child.pid },
      { key: 'gateway-pass', label: 'Switchyard pass-through (anthropic)', target: byKey('gateway-pass'), pid: gateway.child.pid },
      { key: 'portkey-pass', label: theirs.pass.label, target: theirs.pass, pid: peer.child.pid },
      { key: 'gateway-chat-translated', label: 'Switchyard Chat Completions → anthropic', target: byKey('gateway-chat-translated'), pid: gateway.child.pid },
      { key: 'portkey-translated', label: theirs.translated.label, target: theirs.translated, pid: peer.child.pid },
    ];
    const hardCase = await measureHardCase({
      servers,
      upstreamPid: upstream.pid,
      rounds: option('rounds', 3),
      seconds: option('seconds', 5),
      warmupSeconds: option('warmup', 2),
      scriptDir: tmpRoot,
      log,
    });
    const { rows } = hardCase;
    const times = (ours, theirs) =>
      `${(rows[ours].rps / rows[theirs].rps).toFixed(1)} × Portkey's req/s, ${(rows[theirs].cpuUsPerRequest / rows[ours].cpuUsPerRequest).toFixed(1)} × by CPU per request`;
    process.stdout.write(`${renderHardCase(hardCase, nodeVersionOf())}\n\n`);
    process.stdout.write(
      `Switchyard over Portkey (goal ≥ 8 ×): pass-through ${times('gateway-pass', 'portkey-pass')}; Chat Completions → anthropic ${times('gateway-chat-translated', 'portkey-translated')}.\n`,
    );
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

/** Temporary directories of this run, removed at exit whatever the path out. */
const tmpRoots = cleanUpOnExit('portkey');

runMain('portkey', main);
