/**
 * Shared by run.mjs and record.mjs: where the CLIs live and how each runs
 * headless, starting the gateway from the repository, child processes with
 * timeouts (whole process groups killed), free ports, temp dirs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync, createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const AGENTS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(AGENTS_DIR, '..', '..');
const MODULES = path.join(AGENTS_DIR, 'node_modules');

export const CLIENT_KEY = 'sk-switchyard-agents-client-0123456789';
export const ADMIN_KEY = 'sk-switchyard-agents-admin-0123456789';
export const UPSTREAM_KEY = 'sk-fake-upstream-0123456789';

export const PLAIN_PROMPT = 'Reply with a one-line greeting. This is a plain turn; do not run anything.';
/** Names every shell tool (whole words, for the simulator) and carries the fakes' trigger word. */
export const TOOL_PROMPT = 'echo SWITCHYARD_TOOL_OK # USE_SHELL: run this line with your shell tool (Bash, exec_command, exec, run_shell_command) and tell me what it printed.';

export function packageVersion(name) {
  return JSON.parse(readFileSync(path.join(MODULES, name, 'package.json'), 'utf8')).version;
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
 * Runs a command to completion in its own process group, stdin closed.
 * Resolves `{ code, signal, stdout, stderr, timedOut, ms }`; on timeout the
 * whole group is killed. Whatever the outcome, stragglers of the group are killed.
 */
export function runProcess(command, args, { env, cwd, timeoutMs = 120_000, stdoutPath, stderrPath } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    live.add(child.pid);
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
export function channelFor(upstream, fake) {
  if (upstream === 'simulator') return { name: 'agents-simulator', type: 'simulator', models: ['*'] };
  return { name: `agents-${upstream}`, type: upstream, baseUrl: fake.baseUrl, apiKey: UPSTREAM_KEY, models: ['*'] };
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
  writeFileSync(
    configPath,
    JSON.stringify({ channels: channel ? [channel] : [], keys: [{ name: 'agents', key: CLIENT_KEY }], limits: { maxAttempts: 1 } }, null, 2),
  );
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

// ---------------------------------------------------------------- the CLIs

function baseEnv(home, extra) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

function claudeBinary() {
  const native = path.join(MODULES, '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
  if (existsSync(native)) return { command: native, prefix: [] };
  return { command: path.join(MODULES, '.bin', 'claude'), prefix: [] };
}

function nodeBin(name) {
  return { command: process.execPath, prefix: [realpathSync(path.join(MODULES, '.bin', name))] };
}

/** The JSON object a CLI printed: the whole text, else the last object that starts a line. */
function parseJson(text) {
  const starts = [text.indexOf('{'), text.lastIndexOf('\n{') + 1].filter((i) => i >= 0);
  for (const start of starts) {
    try {
      return JSON.parse(text.slice(start));
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * Each CLI: its npm package, the models run by default (first = the newest
 * shape), and `command({ baseUrl, model, prompt, home, cwd })` giving
 * `{ command, args, env }`; `result(run, files)` extracts `{ text, error }`.
 */
export const CLIS = {
  claude: {
    package: '@anthropic-ai/claude-code',
    fixtureName: 'claude-code',
    models: ['claude-opus-5', 'claude-sonnet-4-5'],
    dialect: 'anthropic',
    command({ baseUrl, model, prompt, home }) {
      const { command, prefix } = claudeBinary();
      return {
        command,
        args: [...prefix, '-p', prompt, '--output-format', 'json', '--model', model, '--allowedTools', 'Bash'],
        env: baseEnv(home, {
          ANTHROPIC_BASE_URL: baseUrl,
          ANTHROPIC_API_KEY: CLIENT_KEY,
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
        }),
      };
    },
    result(run) {
      const json = parseJson(run.stdout);
      if (!json) return { text: '', error: lastLines(run.stderr || run.stdout) };
      return { text: String(json.result ?? ''), error: json.is_error ? `${json.result ?? 'is_error'}` : null };
    },
  },
  codex: {
    package: '@openai/codex',
    fixtureName: 'codex',
    models: ['gpt-6.1-sol', 'gpt-5.5', 'gpt-5.1-codex'],
    dialect: 'openai-responses',
    command({ baseUrl, model, prompt, home, cwd }) {
      const { command, prefix } = nodeBin('codex');
      const provider = [
        'model_providers.sy.name="switchyard"',
        `model_providers.sy.base_url="${baseUrl}/v1"`,
        'model_providers.sy.env_key="SWITCHYARD_KEY"',
        'model_providers.sy.wire_api="responses"',
        'model_providers.sy.request_max_retries=0',
        'model_providers.sy.stream_max_retries=0',
        'model_provider="sy"',
      ].flatMap((entry) => ['-c', entry]);
      return {
        command,
        args: [
          ...prefix,
          'exec',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          '--ephemeral',
          '--color',
          'never',
          '-C',
          cwd,
          '-o',
          path.join(home, 'last-message.txt'),
          ...provider,
          '-m',
          model,
          prompt,
        ],
        env: baseEnv(home, { CODEX_HOME: path.join(home, '.codex'), SWITCHYARD_KEY: CLIENT_KEY }),
      };
    },
    result(run, { home }) {
      let text = '';
      try {
        text = readFileSync(path.join(home, 'last-message.txt'), 'utf8');
      } catch {
        text = run.stdout;
      }
      const errors = run.stderr.split('\n').filter((line) => /^ERROR:/.test(line));
      return { text, error: errors.length ? errors.at(-1).replace(/^ERROR:\s*/, '') : run.code === 0 ? null : lastLines(run.stderr) };
    },
  },
  gemini: {
    package: '@google/gemini-cli',
    fixtureName: 'gemini-cli',
    models: ['gemini-3.1-pro-preview'],
    dialect: 'gemini',
    command({ baseUrl, model, prompt, home }) {
      const { command, prefix } = nodeBin('gemini');
      return {
        command,
        args: [...prefix, '-p', prompt, '-m', model, '--yolo', '--output-format', 'json'],
        env: baseEnv(home, { GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_API_KEY: CLIENT_KEY, GOOGLE_GEMINI_BASE_URL: baseUrl }),
      };
    },
    result(run) {
      const json = parseJson(run.stdout) ?? parseJson(run.stderr);
      if (!json) return { text: '', error: lastLines(run.stderr || run.stdout) };
      return { text: String(json.response ?? ''), error: json.error ? String(json.error.message ?? JSON.stringify(json.error)) : null };
    },
  },
};

function lastLines(text, n = 3) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-n)
    .join(' | ')
    .slice(0, 400);
}

/** Prepares an isolated HOME (with the CLI's config files) and a writable work dir. */
export async function prepareHome(cli, root) {
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'work');
  for (const dir of [home, cwd, path.join(home, 'tmp')]) mkdirSync(dir, { recursive: true });
  if (cli === 'gemini') {
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  }
  if (cli === 'codex') mkdirSync(path.join(home, '.codex'), { recursive: true });
  if (cli === 'claude') mkdirSync(path.join(home, '.claude'), { recursive: true });
  return { home, cwd };
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
