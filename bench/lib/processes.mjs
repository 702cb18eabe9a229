/**
 * Child processes of a benchmark run: spawned pinned to a core (when
 * `taskset` exists), tracked, and always stopped, by pid, at the end —
 * including when the run fails or is interrupted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';

const tracked = new Set();

export const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** Pins every thread of this process to `core`; later threads inherit it. */
export function pinSelf(core) {
  if (!hasTaskset) return false;
  return spawnSync('taskset', ['-a', '-cp', String(core), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/**
 * Spawns `command args` on `core` (taskset execs it, so the pid is the
 * command's own). Keeps the last few KB of its output for error messages.
 */
export function spawnPinned(core, command, args, options = {}) {
  const [file, argv] = hasTaskset && core !== undefined ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
  const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.outputTail = '';
  const keep = (chunk) => {
    child.outputTail = (child.outputTail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  tracked.add(child);
  child.once('exit', () => tracked.delete(child));
  return child;
}

function alive(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(child, graceMs = 5000) {
  if (!alive(child)) return;
  child.kill('SIGTERM');
  let timer;
  const killed = new Promise((resolve) => {
    timer = setTimeout(() => {
      if (alive(child)) child.kill('SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([child.exited, killed]);
  clearTimeout(timer);
  await child.exited;
}

export async function stopAll() {
  await Promise.all([...tracked].map((child) => stopProcess(child)));
}

/** Last resort (process exit): no waiting possible, so SIGKILL whatever is left. */
export function killAllNow() {
  for (const child of tracked) if (alive(child)) child.kill('SIGKILL');
}

/** Resolves with the first stdout match of `pattern`; rejects on exit or after `timeoutMs`. */
export function waitForOutput(child, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(new Error(`no "${pattern}" within ${timeoutMs} ms: ${child.outputTail}`)), timeoutMs);
    const onData = (chunk) => {
      seen += chunk.toString('utf8');
      const match = seen.match(pattern);
      if (match) finish(null, match);
    };
    const onExit = (code) => finish(new Error(`process exited (${code}) before "${pattern}": ${child.outputTail}`));
    function finish(error, match) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match);
    }
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, peakRssMb: Math.round(kb('VmHWM') / 102.4) / 10 };
  } catch {
    return { rssMb: NaN, peakRssMb: NaN };
  }
}

/**
 * Temporary directories a run registers (push to the returned list) are
 * removed, and every spawned process is stopped, when this process ends,
 * whatever the path out: a normal exit, a watchdog, SIGINT or SIGTERM.
 */
export function cleanUpOnExit(name) {
  const dirs = [];
  process.on('exit', () => {
    killAllNow();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      process.stderr.write(`[${name}] ${signal}: stopping\n`);
      stopAll().finally(() => process.exit(130));
    });
  }
  return dirs;
}

/** Runs a script's `main`: exit 0 once it is done; on failure, its error, every process stopped, exit 1. */
export function runMain(name, main) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`[${name}] failed: ${error.stack ?? error.message}\n`);
      stopAll().finally(() => process.exit(1));
    },
  );
}
