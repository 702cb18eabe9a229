/**
 * What every scripted fake upstream shares: the HTTP server (loopback, every
 * request recorded), the script that decides the answer, SSE writing, ids.
 *
 * The script, applied to the conversation the upstream receives:
 *   1. the last turn carries a tool result      -> final text quoting it:
 *      "The tool said: SWITCHYARD_TOOL_OK" (or the output's first 200 chars);
 *   2. the request text contains USE_SHELL and a shell tool is offered
 *      -> ONE call of that tool running `echo SWITCHYARD_TOOL_OK`;
 *   3. otherwise                                 -> text "SWITCHYARD_PLAIN_OK".
 * Before these, for compaction (Codex): a request asking the upstream for a
 * hand-off summary (the gateway's compaction prompt) gets a summary naming
 * the tool's output; a conversation already compacted (a `compaction` item,
 * or the gateway's summary read back as text) gets "SWITCHYARD_COMPACTED_OK",
 * so a compacting tool loop ends.
 * Shell tools, by name: Bash (Claude Code), bash (opencode), exec_command /
 * shell / shell_command (Codex), run_shell_command (Gemini CLI); failing those, a
 * code-mode `exec` tool (Codex's newest models) is given JavaScript that runs
 * exec_command.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_OK = 'SWITCHYARD_TOOL_OK';
export const PLAIN_OK = 'SWITCHYARD_PLAIN_OK';
export const TRIGGER = 'USE_SHELL';
export const COMPACTED_OK = 'SWITCHYARD_COMPACTED_OK';
/** Words of the gateway's compaction prompt and of its summary read back (src/families/responses/compaction.ts). */
const SUMMARY_ASKED = 'The conversation above is being compacted';
const SUMMARY_READ_BACK = 'Summary of the conversation so far';
export const SHELL_COMMAND = `echo ${TOOL_OK}`;
export const SHELL_TOOL_NAMES = ['Bash', 'bash', 'exec_command', 'shell', 'shell_command', 'run_shell_command', 'local_shell'];
/** JavaScript for Codex's code-mode `exec` tool: run the shell command and hand back its output. */
export const EXEC_JS = `const r = await tools.exec_command({ cmd: ${JSON.stringify(SHELL_COMMAND)} });\ntext(typeof r === "string" ? r : r.output);\n`;

export const hex = (bytes = 12) => randomBytes(bytes).toString('hex');
export const base62 = (length = 24) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return out;
};
export const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A rough token count, so usage numbers are plausible. */
export const tokensOf = (value) => Math.max(1, Math.ceil((typeof value === 'string' ? value : JSON.stringify(value ?? '')).length / 4));

/**
 * Arguments for a shell tool, from the parameter schema it declares: the
 * command goes into `command` or `cmd` (a string, or an argv array when the
 * schema says array), else into the first required string property.
 */
export function shellArguments(schema) {
  const properties = schema?.properties ?? {};
  for (const name of ['command', 'cmd']) {
    const property = properties[name];
    if (!property) continue;
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    return { [name]: type === 'array' ? ['bash', '-lc', SHELL_COMMAND] : SHELL_COMMAND };
  }
  const candidates = [...(schema?.required ?? []), ...Object.keys(properties)];
  const first = candidates.find((name) => (properties[name]?.type ?? 'string') === 'string');
  return { [first ?? 'command']: SHELL_COMMAND };
}

/**
 * Picks the shell tool among declared tools. Each declared tool is
 * `{ name, parameters, custom?, namespace? }`. Returns
 * `{ name, namespace, custom, args }` (`args` an object for function tools,
 * a string for custom ones) or null.
 */
export function pickShellTool(tools) {
  for (const wanted of SHELL_TOOL_NAMES) {
    const tool = tools.find((t) => t.name === wanted);
    if (tool) return { ...tool, args: tool.custom ? SHELL_COMMAND : shellArguments(tool.parameters) };
  }
  const exec = tools.find((t) => t.name === 'exec');
  if (exec) {
    if (exec.custom) return { ...exec, args: EXEC_JS };
    const properties = exec.parameters?.properties ?? {};
    const field = Object.keys(properties).find((name) => properties[name]?.type === 'string') ?? 'input';
    return { ...exec, args: { [field]: EXEC_JS } };
  }
  return null;
}

/**
 * The decision. `turns` is the conversation as `{ kind: 'user' | 'tool-result', text }`
 * in order (assistant turns left out); `tools` as for pickShellTool; `raw` the
 * request body (searched for the trigger word).
 */
export function decide({ turns, tools, raw }) {
  const whole = JSON.stringify(raw ?? '');
  if (whole.includes(SUMMARY_ASKED)) return { kind: 'text', text: `Goal: run the shell line. Progress: it printed ${TOOL_OK}.` };
  if (whole.includes(SUMMARY_READ_BACK) || whole.includes('"type":"compaction"')) return { kind: 'text', text: COMPACTED_OK };
  const lastUser = turns.findLastIndex((t) => t.kind === 'user');
  const lastResult = turns.findLastIndex((t) => t.kind === 'tool-result');
  if (lastResult >= 0 && lastResult > lastUser) {
    const output = String(turns[lastResult].text ?? '');
    const said = output.includes(TOOL_OK) ? TOOL_OK : output.trim().slice(0, 200) || '(empty output)';
    return { kind: 'text', text: `The tool said: ${said}` };
  }
  const wantsShell = JSON.stringify(raw ?? '').includes(TRIGGER);
  const shell = wantsShell ? pickShellTool(tools) : null;
  if (shell) return { kind: 'tool', ...shell };
  return { kind: 'text', text: PLAIN_OK };
}

/** Text of a content value that may be a string, an array of parts, or an object. */
export function textOf(value) {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (typeof value === 'object') {
    if (typeof value.text === 'string') return value.text;
    if (typeof value.output === 'string') return value.output;
    if ('content' in value) return textOf(value.content);
    return JSON.stringify(value);
  }
  return String(value);
}

/** A request's path below an API prefix (`/v1/responses` under `/v1` is `/responses`); the whole path when it is not under it. */
export function routeBelow(url, prefix) {
  return url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
}

/** Splits a string into n-character pieces (for streamed deltas). */
export function pieces(text, size = 16) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/** Writes an SSE stream: events are `{ event?, data }` (data an object or a raw string). */
export function writeSse(res, events, { status = 200 } = {}) {
  res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

export function writeJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Starts a fake on loopback. `handle(req, res, { url, body, raw, record })`
 * answers (`raw` the body's bytes as sent, for a signature over them).
 * Every request is recorded as `{ method, path, headers, body, status }`.
 */
export async function startFakeServer({ name, port = 0, handle, basePath = '' }) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const record = { time: new Date().toISOString(), method: req.method, path: req.url, headers: { ...req.headers }, body, status: null };
      requests.push(record);
      const url = new URL(req.url, 'http://fake');
      res.on('finish', () => (record.status = res.statusCode));
      try {
        await handle(req, res, { url, body, raw, record });
      } catch (error) {
        if (!res.headersSent) writeJson(res, 500, { error: { message: `fake ${name}: ${error.message}` } });
        else res.end();
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    name,
    origin,
    /** The channel baseUrl for this dialect (the origin, or the /v1 prefix). */
    baseUrl: origin + basePath,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** `node fakes/<dialect>.mjs [--port N]`: runs one fake standalone and logs each request. */
export async function runStandalone(metaUrl, start) {
  if (!process.argv[1] || fileURLToPath(metaUrl) !== path.resolve(process.argv[1])) return;
  const index = process.argv.indexOf('--port');
  const fake = await start({ port: index >= 0 ? Number(process.argv[index + 1]) : 0 });
  process.stdout.write(`fake ${fake.name} upstream on ${fake.baseUrl}\n`);
  let seen = 0;
  setInterval(() => {
    for (; seen < fake.requests.length; seen++) {
      const r = fake.requests[seen];
      process.stdout.write(`${r.method} ${r.path} -> ${r.status}\n`);
    }
  }, 200).unref();
  const stop = () => fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
