/**
 * Shared by run.mjs and record.mjs: the keys and prompts, starting the
 * gateway from the repository, child processes with timeouts (whole process
 * groups killed), free ports, temp dirs. How each CLI runs is in clis.mjs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const AGENTS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(AGENTS_DIR, '..', '..');
export const MODULES = path.join(AGENTS_DIR, 'node_modules');

export const CLIENT_KEY = 'sk-switchyard-agents-client-0123456789';
export const ADMIN_KEY = 'sk-switchyard-agents-admin-0123456789';
export const UPSTREAM_KEY = 'sk-fake-upstream-0123456789';

export const PLAIN_PROMPT = 'Reply with a one-line greeting. This is a plain turn; do not run anything.';
/** Names every shell tool (whole words, for the simulator) and carries the fakes' trigger word. */
export const TOOL_PROMPT = 'echo SWITCHYARD_TOOL_OK # USE_SHELL: run this line with your shell tool (Bash, exec_command, exec, run_shell_command) and tell me what it printed.';

export function packageVersion(name) {
  const file = path.join(MODULES, name, 'package.json');
  // opencode's package exists for one platform only; say so instead of failing the whole run.
  if (!existsSync(file)) return 'not installed';
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

// ---------------------------------------------------------------- processes

const live = new Set();

/** Kills a process group (the child was spawned detached, so its pid is the group id). */
export function killGroup(pid, signal = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function killAll() {
  for (const pid of live) killGroup(pid);
  live.clear();
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

/**
 * Runs a command to completion in its own process group, stdin closed (or
 * fed `input`, then closed).
 * Resolves `{ code, signal, stdout, stderr, timedOut, ms }`; on timeout the
 * whole group is killed. Whatever the outcome, stragglers of the group are killed.
 */
export function runProcess(command, args, { env, cwd, timeoutMs = 120_000, stdoutPath, stderrPath, input } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true });
    live.add(child.pid);
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    const finish = (code, signal, error) => {
      clearTimeout(timer);
      killGroup(child.pid);
      live.delete(child.pid);
      if (error) stderr += `\n[spawn error] ${error.message}`;
      if (stdoutPath) writeFileSync(stdoutPath, stdout);
      if (stderrPath) writeFileSync(stderrPath, stderr);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    };
    child.on('error', (error) => finish(null, null, error));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

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

export const tempDir = (prefix) => mkdtemp(path.join(os.tmpdir(), prefix));

// ---------------------------------------------------------------- gateway

/** The gateway's channel entry for an upstream under test. */
export function channelFor(upstream, fake, listedModels = []) {
  // `*` serves every name; `listedModels` are the names the model list (GET /v1/models) shows for it.
  const settings = { listedModels };
  if (upstream === 'simulator') return { name: 'agents-simulator', type: 'simulator', models: ['*'], settings };
  const channel = { name: `agents-${upstream}`, type: upstream, baseUrl: fake.baseUrl, apiKey: UPSTREAM_KEY, models: ['*'], settings };
  // A cloud fake brings its own credential and settings, and serves one model (a Claude model, a deployment) that every name maps to.
  const cloud = fake.channel;
  if (cloud) {
    channel.apiKey = cloud.apiKey;
    Object.assign(settings, cloud.settings);
    channel.modelMapping = Object.fromEntries(listedModels.map((model) => [model, cloud.upstreamModel]));
  }
  return channel;
}

/**
 * Starts the gateway from the repository as a child process: source through
 * tsx (default) or the built bundle (`mode: 'bundle'`), SQLite in a temp data
 * dir, a generated config with one client key and the channel. Resolves
 * `{ url, logPath, stop() }` once /healthz answers.
 */
export async function startGateway({ channel, dir, mode = 'source', log = 'info' }) {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const configPath = path.join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ channels: channel ? [channel] : [], keys: [{ name: 'agents', key: CLIENT_KEY }], limits: { maxAttempts: 1 } }, null, 2));
  let args;
  if (mode === 'bundle') {
    const bundle = path.join(REPO_ROOT, 'dist', 'bundle', 'main.js');
    if (!existsSync(bundle)) throw new Error(`no gateway bundle at ${bundle} (npm run build at the repository root)`);
    args = [bundle];
  } else {
    if (!existsSync(path.join(REPO_ROOT, 'node_modules', 'tsx'))) throw new Error(`tsx is not installed at ${REPO_ROOT}/node_modules (run npm ci at the repository root)`);
    args = ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'main.ts')];
  }
  const logPath = path.join(dir, 'gateway.log');
  const logStream = createWriteStream(logPath);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      SWITCHYARD_HOST: '127.0.0.1',
      SWITCHYARD_PORT: String(port),
      SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
      SWITCHYARD_ADMIN_KEY: ADMIN_KEY,
      SWITCHYARD_CONFIG: configPath,
      SWITCHYARD_LOG_LEVEL: log,
      SWITCHYARD_REFRESH_MS: '60000',
      SWITCHYARD_UPSTREAM_TIMEOUT_MS: '60000',
    },
  });
  live.add(child.pid);
  child.stdout.pipe(logStream);
  child.stderr.pipe(logStream);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`gateway exited (${exited.code ?? exited.signal}) before it answered; see ${logPath}:\n${readFileSync(logPath, 'utf8').slice(-1500)}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      killGroup(child.pid);
      throw new Error(`gateway did not answer /healthz within 60 s; see ${logPath}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return {
    url,
    logPath,
    async stop() {
      if (!exited) {
        killGroup(child.pid, 'SIGTERM');
        const until = Date.now() + 5000;
        while (!exited && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      killGroup(child.pid);
      live.delete(child.pid);
      logStream.end();
    },
  };
}

/** Does a request body carry a tool result (any of the three client dialects, or chat completions)? */
export function carriesToolResult(body) {
  if (!body || typeof body !== 'object') return false;
  if (Array.isArray(body.messages)) {
    return body.messages.some((m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((b) => b?.type === 'tool_result')));
  }
  if (Array.isArray(body.input)) return body.input.some((item) => typeof item?.type === 'string' && item.type.endsWith('_call_output'));
  if (Array.isArray(body.contents)) return body.contents.some((c) => (c.parts ?? []).some((p) => p.functionResponse));
  return false;
}
