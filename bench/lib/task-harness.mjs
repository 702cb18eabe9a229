/**
 * What the task benchmarks (images, videos) share: compiling the gateway into
 * a scratch directory, a free loopback port, starting a gateway with a config
 * file and waiting for it to answer, stopping it, and running one measurement
 * on SQLite and then on PostgreSQL (when reachable) in a throwaway schema.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE, serverRuntime } from './gateway.mjs';

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
  // The gateway under BENCH_NODE when set (as run.mjs's servers) and the image's runtime settings, the load on this Node.
  const runtime = serverRuntime();
  const child = spawn(SERVER_NODE, [...runtime.nodeArgs, ...nodeArgs, entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...runtime.env,
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
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
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

/** The PostgreSQL URL to measure on (with a user name), or undefined when none answers. */
export async function postgresUrl(override) {
  const url = override ?? 'postgres://127.0.0.1:5432/test';
  const withUser = new URL(url);
  if (!withUser.username) withUser.username = process.env.PGUSER || process.env.USER || os.userInfo().username;
  const client = new pg.Client({ connectionString: withUser.toString() });
  try {
    await client.connect();
    await client.end();
    return withUser.toString();
  } catch {
    return undefined;
  }
}

/**
 * Runs `runEngine(label, entry, env)` on SQLite, then on PostgreSQL, prints
 * the markdown report and the raw rows (and writes the report to `outFile`,
 * the rows as JSON to `jsonFile`),
 * and always stops every gateway and removes every scratch file.
 */
export function runOnBothEngines({ compile, runEngine, markdown, pgUrl, outFile, jsonFile, children, cleanups }) {
  const main = async () => {
    const entry = compile();
    const rows = [await runEngine('SQLite', entry, {})];
    const url = await postgresUrl(pgUrl);
    if (url) {
      const schema = `bench_${randomBytes(5).toString('hex')}`;
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      });
      rows.push(await runEngine('PostgreSQL', entry, { SWITCHYARD_DATABASE_URL: url, SWITCHYARD_DATABASE_SCHEMA: schema }));
    }
    const report = markdown(rows);
    process.stdout.write(`${report}\n\n${JSON.stringify(rows, null, 2)}\n`);
    if (outFile) writeFileSync(outFile, `${report}\n`);
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(rows)}\n`);
  };
  main()
    .catch((error) => {
      process.exitCode = 1;
      process.stderr.write(`${error.stack ?? error}\n`);
    })
    .finally(async () => {
      await Promise.all([...children].map(stopGateway));
      for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    });
}
