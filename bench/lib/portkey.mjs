/**
 * Portkey's open-source gateway (`@portkey-ai/gateway`, the version issue 37
 * measured) as a peer to compare with: installed from the npm registry into
 * a cache folder outside the checkout on first use (BENCH_PORTKEY_DIR,
 * default under the system's temporary folder), started with its own
 * command on the measured core under the same Node and runtime settings as
 * the gateway, and given the fake upstream as each request's custom host.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CLIENT_KEY, SERVER_NODE, chatBody, messagesBody, serverRuntime } from './gateway.mjs';
import { freePort, spawnPinned, waitForOutput } from './processes.mjs';

export const PORTKEY_VERSION = '1.15.2';

/** The path of Portkey's start script, installing it first if needed; undefined (with why) when it cannot be had. */
export function installPortkey(log = () => {}) {
  const dir = process.env.BENCH_PORTKEY_DIR ?? join(os.tmpdir(), `switchyard-bench-portkey-${PORTKEY_VERSION}`);
  const script = join(dir, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  if (existsSync(script)) return { script };
  log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${dir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `@portkey-ai/gateway@${PORTKEY_VERSION}`];
  const result = spawnSync(npm, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  if (result.status !== 0 || !existsSync(script))
    return {
      error: `npm install failed: ${String(result.stderr ?? result.error)
        .trim()
        .slice(0, 300)}`,
    };
  return { script };
}

/** Portkey on `core`, headless, in production mode (no console UI); resolves once it is ready. */
export async function startPortkey({ script, core, node = SERVER_NODE }) {
  const port = await freePort();
  const runtime = serverRuntime(node);
  const child = spawnPinned(core, node, [...runtime.nodeArgs, script, `--port=${port}`, '--headless'], { env: { ...process.env, ...runtime.env, NODE_ENV: 'production' } });
  await waitForOutput(child, /Ready for connections/, 20_000);
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * Portkey's requests matching the gateway's hard-case paths: Messages
 * passed through to an Anthropic upstream, and Chat Completions translated
 * to one (the gateway's `gateway-chat-translated`), the fake upstream as the
 * custom host.
 */
export function portkeyTargets(portkeyUrl, upstreamUrl) {
  const common = { 'x-portkey-custom-host': `${upstreamUrl}/v1` };
  return {
    pass: {
      label: `Portkey ${PORTKEY_VERSION} pass-through (anthropic)`,
      url: `${portkeyUrl}/v1/messages`,
      headers: { ...common, 'x-portkey-provider': 'anthropic', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: messagesBody('pass-model'),
    },
    translated: {
      label: `Portkey ${PORTKEY_VERSION} Chat Completions → anthropic`,
      url: `${portkeyUrl}/v1/chat/completions`,
      headers: { ...common, 'x-portkey-provider': 'anthropic', authorization: `Bearer ${CLIENT_KEY}` },
      body: chatBody('pass-model'),
    },
  };
}
