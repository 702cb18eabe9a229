/**
 * How each coding-agent CLI runs headless through the gateway: where its
 * binary lives, its flags and environment (isolated HOME, no telemetry or
 * update checks), how its answer is read, and the config files it needs.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMPACT_CASE, COMPACT_CONFIG } from './compact.mjs';
import { CLIENT_KEY, MODULES } from './lib.mjs';

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

/**
 * opencode ships one native binary per platform; the suite installs the
 * platform package directly (see README) and runs its binary, so no
 * postinstall step is needed.
 */
function opencodeBinary() {
  const platform = { win32: 'windows' }[process.platform] ?? process.platform;
  for (const suffix of ['', '-baseline']) {
    const native = path.join(MODULES, `opencode-${platform}-${process.arch}${suffix}`, 'bin', platform === 'windows' ? 'opencode.exe' : 'opencode');
    if (existsSync(native)) return native;
  }
  const wrapper = path.join(MODULES, '.bin', 'opencode');
  if (existsSync(wrapper)) return wrapper;
  throw new Error(`opencode is not installed for ${process.platform}-${process.arch} under ${MODULES} (run npm ci in test/agents)`);
}

/** The opencode.json of a run: one OpenAI-compatible provider `sy` whose only model is the one under test. */
function opencodeConfig(baseUrl, model) {
  return {
    autoupdate: false,
    share: 'disabled',
    // `opencode run` auto-rejects a permission it would ask for; say yes to the shell up front.
    permission: { bash: 'allow' },
    model: `sy/${model}`,
    small_model: `sy/${model}`,
    provider: {
      sy: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Switchyard',
        options: { baseURL: `${baseUrl}/v1`, apiKey: CLIENT_KEY },
        models: { [model]: { name: model } },
      },
    },
  };
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
 * shape), and `command({ baseUrl, model, prompt, home, cwd, caseName })` giving
 * `{ command, args, env }`; `setup({ baseUrl, home, caseName })`, where a CLI
 * needs one, a command run before it (with `input` on its stdin); `transport`,
 * where it is not plain HTTP (`responses-websocket`: the case also requires
 * every turn on the WebSocket, see run.mjs); `extraCases`: the cases it runs
 * besides plain and tool (`discovery`, `compact`; see run.mjs);
 * `result(run, files)` extracts `{ text, error }`;
 * `sideRequest(body)`, where a CLI has them, names requests beside the
 * conversation (recorded as `extra-<name>`).
 */
/** `codex exec` headless in `cwd`, its last message written to a file; `config` adds `-c` pairs (a provider), `env` variables. */
function codexExec({ model, prompt, home, cwd }, config, env) {
  const { command, prefix } = nodeBin('codex');
  const args = [...prefix, 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--ephemeral', '--color', 'never', '-C', cwd];
  args.push('-o', path.join(home, 'last-message.txt'), ...config, '-m', model, prompt);
  return { command, args, env: baseEnv(home, { CODEX_HOME: path.join(home, '.codex'), ...env }) };
}

/** Codex's answer: the last message it wrote, else its stdout; its error: the last `ERROR:` line, else the end of stderr. */
function codexResult(run, { home }) {
  let text = '';
  try {
    text = readFileSync(path.join(home, 'last-message.txt'), 'utf8');
  } catch {
    text = run.stdout;
  }
  const errors = run.stderr.split('\n').filter((line) => /^ERROR:/.test(line));
  return { text, error: errors.length ? errors.at(-1).replace(/^ERROR:\s*/, '') : run.code === 0 ? null : lastLines(run.stderr) };
}

export const CLIS = {
  claude: {
    package: '@anthropic-ai/claude-code',
    fixtureName: 'claude-code',
    models: ['claude-opus-5', 'claude-sonnet-4-5'],
    dialect: 'anthropic',
    // `discovery`: a plain turn with gateway model discovery on (GET /v1/models at start, cached under CLAUDE_CONFIG_DIR).
    extraCases: ['discovery'],
    command({ baseUrl, model, prompt, home, caseName }) {
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
          ...(caseName === 'discovery' ? { CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' } : {}),
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
      const provider = [
        'model_providers.sy.name="switchyard"',
        `model_providers.sy.base_url="${baseUrl}/v1"`,
        'model_providers.sy.env_key="SWITCHYARD_KEY"',
        'model_providers.sy.wire_api="responses"',
        'model_providers.sy.request_max_retries=0',
        'model_providers.sy.stream_max_retries=0',
        'model_provider="sy"',
      ].flatMap((entry) => ['-c', entry]);
      return codexExec({ model, prompt, home, cwd }, provider, { SWITCHYARD_KEY: CLIENT_KEY });
    },
    result: codexResult,
  },
  // Codex with its built-in OpenAI provider, the common setup: `openai_base_url` in config.toml and
  // `codex login --with-api-key`. It opens the Responses WebSocket first and falls back to HTTP only if refused.
  'codex-builtin': {
    package: '@openai/codex',
    fixtureName: 'codex-builtin',
    models: ['gpt-6.1-sol', 'gpt-5.5'],
    dialect: 'openai-responses',
    transport: 'responses-websocket',
    // `compact`: the tool case with a compaction threshold below one turn's prompt (compact.mjs).
    extraCases: [COMPACT_CASE],
    setup({ baseUrl, home, caseName }) {
      const { command, prefix } = nodeBin('codex');
      const compact = caseName === COMPACT_CASE ? COMPACT_CONFIG : '';
      writeFileSync(path.join(home, '.codex', 'config.toml'), `openai_base_url = "${baseUrl}/v1"\n${compact}`);
      return { command, args: [...prefix, 'login', '--with-api-key'], env: baseEnv(home, { CODEX_HOME: path.join(home, '.codex') }), input: CLIENT_KEY };
    },
    command({ model, prompt, home, cwd }) {
      return codexExec({ model, prompt, home, cwd }, [], {});
    },
    result: codexResult,
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
  opencode: {
    package: 'opencode-linux-x64',
    fixtureName: 'opencode',
    // gpt-5.5: opencode adds reasoning_effort; claude-sonnet-4-5: it adds cache_control marks.
    models: ['gpt-5.5', 'claude-sonnet-4-5'],
    dialect: 'openai-chat',
    command({ baseUrl, model, prompt, home }) {
      return {
        command: opencodeBinary(),
        args: ['run', '-m', `sy/${model}`, '--format', 'json', prompt],
        env: baseEnv(home, {
          XDG_CONFIG_HOME: path.join(home, '.config'),
          XDG_DATA_HOME: path.join(home, '.local', 'share'),
          XDG_CACHE_HOME: path.join(home, '.cache'),
          XDG_STATE_HOME: path.join(home, '.local', 'state'),
          OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(baseUrl, model)),
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_SHARE: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
          OPENCODE_DISABLE_CLAUDE_CODE: '1',
          // opencode installs @opencode-ai/plugin into its config dir in the
          // background through npm's own code; offline it fails at once, with a warning.
          npm_config_offline: 'true',
        }),
      };
    },
    /** opencode asks for a session title in a request of its own (no tools) beside each first turn. */
    sideRequest(body) {
      const system = body?.messages?.find((m) => m.role === 'system');
      return typeof system?.content === 'string' && system.content.startsWith('You are a title generator') ? 'title' : null;
    },
    result(run) {
      // --format json prints one event per line: text parts, tool uses, errors.
      const texts = [];
      const errors = [];
      for (const line of run.stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          continue;
        }
        if (event.type === 'text' && typeof event.part?.text === 'string') texts.push(event.part.text);
        if (event.type === 'error') errors.push(String(event.error?.data?.message ?? event.error?.name ?? JSON.stringify(event.error)));
      }
      const error = errors.length ? errors.join(' | ') : run.code === 0 ? null : lastLines(run.stderr || run.stdout);
      return { text: texts.join('\n'), error };
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
  if (cli.startsWith('codex')) mkdirSync(path.join(home, '.codex'), { recursive: true });
  if (cli === 'claude') mkdirSync(path.join(home, '.claude'), { recursive: true });
  return { home, cwd };
}
