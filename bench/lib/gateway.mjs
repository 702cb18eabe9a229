/** Starting the built gateway (dist/) as the benchmark's system under test. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageRuntime } from './image-runtime.mjs';
import { freePort, spawnPinned, stopProcess, waitForOutput } from './processes.mjs';
import { pollUntil200, requestOnce } from './probe.mjs';

export const CLIENT_KEY = 'sk-bench-key-0123456789';

/**
 * The Node binary that runs the measured servers, the gateway and the floor
 * proxy alike (`BENCH_NODE=/path/to/node`; default: the one running the
 * bench). The load generators and the fake upstream stay on the bench's own
 * Node: they are the yardstick, not what is measured.
 */
export const SERVER_NODE = process.env.BENCH_NODE ? resolve(process.env.BENCH_NODE) : process.execPath;

const versions = new Map();

/** `v24.1.0` for a Node binary (`process.version` when it is this one). */
export function nodeVersionOf(node = SERVER_NODE) {
  if (node === process.execPath) return process.version;
  if (!versions.has(node))
    versions.set(
      node,
      execFileSync(node, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  return versions.get(node);
}

/** The measured servers' runtime settings under `node` (lib/image-runtime.mjs). */
export function serverRuntime(node = SERVER_NODE) {
  return imageRuntime(nodeVersionOf(node));
}

/** Family C (Messages) client credentials. */
export const CLIENT_HEADERS = {
  'x-api-key': CLIENT_KEY,
  'anthropic-version': '2023-06-01',
};

/** Family D (content generation) client credentials. */
export const GEMINI_CLIENT_HEADERS = { 'x-goog-api-key': CLIENT_KEY };

/** Family E (Responses) client credentials. */
export const RESPONSES_CLIENT_HEADERS = { authorization: `Bearer ${CLIENT_KEY}` };

/**
 * Channels on the fake upstream, one native and one translated (OpenAI chat) per family:
 * C `anth` / `oai`, D `gem` / `oai-d`, E `resp` / `oai-e`.
 */
export function writeGatewayConfig(dir, upstreamUrl) {
  const path = join(dir, 'switchyard.json');
  const chat = (name, model) => ({ name, type: 'openai-chat', baseUrl: `${upstreamUrl}/v1`, apiKey: 'x', models: [model] });
  const config = {
    channels: [
      { name: 'anth', type: 'anthropic', baseUrl: upstreamUrl, apiKey: 'x', models: ['pass-model'] },
      chat('oai', 'translated-model'),
      { name: 'gem', type: 'gemini', baseUrl: upstreamUrl, apiKey: 'x', models: ['gem-native'] },
      chat('oai-d', 'gem-translated'),
      { name: 'resp', type: 'openai-responses', baseUrl: `${upstreamUrl}/v1`, apiKey: 'x', models: ['resp-native'] },
      chat('oai-e', 'resp-translated'),
    ],
    keys: [{ name: 'bench', key: CLIENT_KEY }],
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export function messagesBody(model, stream = false) {
  return { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...(stream ? { stream: true } : {}) };
}

/** Family D: the model and the streaming choice are in the URL, not the body. */
export function generateContentBody() {
  return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 64 } };
}

/** `<base>/v1beta/models/<model>:generateContent`, or `:streamGenerateContent?alt=sse`. */
export function generateContentPath(model, stream = false) {
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** Family E; `store: false` unless asked, so that the relay is what is measured. */
export function responsesBody(model, stream = false, store = false) {
  return { model, input: 'hi', max_output_tokens: 64, ...(store ? {} : { store: false }), ...(stream ? { stream: true } : {}) };
}

/** OpenAI chat, the upstream dialect of every translated path. */
export function chatBody(model, stream = false) {
  return {
    model,
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hi' }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/**
 * Spawns `node <entry>` on `core` with a fresh data directory under `tmpRoot`
 * (`env` adds or replaces variables; `cwd` where `nodeArgs` such as
 * `--import tsx` resolve; `node`, the binary, `SERVER_NODE` by default).
 * Returns the child, its base URL and the hrtime (ns) just before the spawn.
 */
export async function spawnGateway({ entry, core, tmpRoot, configPath, nodeArgs = [], env: extraEnv = {}, cwd, node = SERVER_NODE }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpRoot, 'data-'));
  const runtime = serverRuntime(node);
  const env = {
    ...process.env,
    ...runtime.env,
    NODE_ENV: 'production',
    SWITCHYARD_HOST: '127.0.0.1',
    SWITCHYARD_PORT: String(port),
    SWITCHYARD_DATA_DIR: dataDir,
    SWITCHYARD_CONFIG: configPath,
    SWITCHYARD_ADMIN_KEY: `sk-admin-${randomBytes(12).toString('hex')}`,
    SWITCHYARD_LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const spawnedAt = process.hrtime.bigint();
  const child = spawnPinned(core, node, [...runtime.nodeArgs, ...nodeArgs, entry], { env, ...(cwd ? { cwd } : {}) });
  return { child, baseUrl: `http://127.0.0.1:${port}`, spawnedAt };
}

const sinceMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

/** Waits for /healthz to answer 200; returns milliseconds since the spawn. */
export async function waitHealthy(gateway, timeoutMs = 15_000) {
  const isDead = () => gateway.child.exitCode !== null || gateway.child.signalCode !== null;
  try {
    await pollUntil200(`${gateway.baseUrl}/healthz`, {}, { timeoutMs, isDead });
  } catch (error) {
    throw new Error(`gateway not healthy: ${error.message}\n${gateway.child.outputTail}`);
  }
  return sinceMs(gateway.spawnedAt);
}

/**
 * One cold start: spawn → first 200 from /healthz, then → first 200 from a
 * (non-streaming, pass-through) chat request. Stops the process afterwards.
 */
export async function measureColdStart(options) {
  const gateway = await spawnGateway(options);
  try {
    const healthzMs = await waitHealthy(gateway);
    const answer = await requestOnce(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: CLIENT_HEADERS,
      body: messagesBody('pass-model'),
    });
    const chatMs = sinceMs(gateway.spawnedAt);
    if (answer.status !== 200) throw new Error(`first chat request answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return { healthzMs: Math.round(healthzMs), chatMs: Math.round(chatMs) };
  } finally {
    await stopProcess(gateway.child);
  }
}

const floorScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'floor-proxy.mjs');

/** The floor proxy, on `core`, under the measured servers' Node; resolves once it listens, with the child and its URL. */
export async function startFloor({ core, upstreamUrl, node = SERVER_NODE }) {
  const runtime = serverRuntime(node);
  const child = spawnPinned(core, node, [...runtime.nodeArgs, floorScript, upstreamUrl, '0'], { env: { ...process.env, ...runtime.env } });
  const [, url] = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
  return { child, url };
}

/**
 * The floor proxy's cold start, for comparison: spawn → first 200 of the same
 * Messages request through it (node:http and undici's Pool, nothing else), on
 * the same core. What Node itself takes to start on this machine is in it.
 * `onReady(child)` runs once it answered, before it is stopped.
 */
export async function measureFloorColdStart({ core, upstreamUrl, node = SERVER_NODE, onReady }) {
  const port = await freePort();
  const spawnedAt = process.hrtime.bigint();
  const runtime = serverRuntime(node);
  const child = spawnPinned(core, node, [...runtime.nodeArgs, floorScript, upstreamUrl, String(port)], { env: { ...process.env, ...runtime.env } });
  try {
    const isDead = () => child.exitCode !== null || child.signalCode !== null;
    await pollUntil200(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: CLIENT_HEADERS, body: messagesBody('pass-model') }, { isDead });
    const ms = Math.round(sinceMs(spawnedAt));
    // Before the stop: e.g. the process's CPU time at its first answer.
    onReady?.(child);
    return ms;
  } finally {
    await stopProcess(child);
  }
}
