/**
 * What the task benchmarks (images, videos) share: compiling the gateway into
 * a scratch directory, a free loopback port, starting a gateway with a config
 * file and waiting for it to answer, and stopping it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Compiles `src` into a scratch directory (so a tree with others' unfinished
 * work still yields a runnable build) and returns its entry point; `override`
 * (an env value) names a ready entry instead.
 */
export function compileGateway(cleanups, override) {
  if (override) return override;
  const out = mkdtempSync(join(os.tmpdir(), 'switchyard-bench-build-'));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  // Compiled output next to a link to this checkout's dependencies, so imports resolve.
  symlinkSync(join(repoDir, 'node_modules'), join(out, 'node_modules'), 'dir');
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  try {
    execFileSync(process.execPath, [join(repoDir, 'node_modules/typescript/bin/tsc'), '-p', join(repoDir, 'tsconfig.build.json'), '--outDir', out], { stdio: 'pipe' });
  } catch {
    // Type errors elsewhere in the tree do not stop the emit; a missing entry does.
  }
  return join(out, 'src', 'main.js');
}

export function freePort() {
  return new Promise((done, fail) => {
    const server = net.createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * Starts a gateway on loopback with `config` written to a fresh data
 * directory; resolves once /healthz answers (30 s at most).
 */
export async function startGateway({ entry, config, env = {}, nodeArgs = [], adminKey, children, cleanups }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'switchyard-bench-data-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const configPath = join(dataDir, 'config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SWITCHYARD_HOST: '127.0.0.1',
      SWITCHYARD_PORT: String(port),
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_CONFIG: configPath,
      SWITCHYARD_ADMIN_KEY: adminKey,
      SWITCHYARD_LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${output}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`gateway did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url };
}

/** SIGTERM, then SIGKILL after 15 s. */
export async function stopGateway(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
