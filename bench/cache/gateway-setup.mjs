/**
 * The gateways under test: one model per upstream type (`cache-<type>`), served
 * by one channel with one key (the ideal), or by 4 channels × 2 keys, all on
 * the fake upstreams. Each setup gets its own keys, so no cache carries over.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_KEY, spawnGateway, waitHealthy } from '../lib/gateway.mjs';

export { CLIENT_KEY };

export const UPSTREAM_TYPES = ['anthropic', 'openai-responses', 'openai-chat', 'gemini'];
export const modelFor = (type) => `cache-${type}`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `label` names the setup's keys; `channels` × `keysPerChannel` per upstream type. */
export function writeCacheConfig(dir, upstreamUrl, { label, channels, keysPerChannel }) {
  const list = [];
  for (const type of UPSTREAM_TYPES) {
    const baseUrl = type.startsWith('openai-') ? `${upstreamUrl}/v1` : upstreamUrl;
    for (let channel = 1; channel <= channels; channel += 1) {
      const keys = Array.from({ length: keysPerChannel }, (_, index) => `${label}-${type}-${channel}${'abcdefgh'[index]}`);
      list.push({ name: `${type}-${channel}`, type, baseUrl, apiKey: keys.length === 1 ? keys[0] : keys, models: [modelFor(type)] });
    }
  }
  const path = join(dir, `switchyard-${label}.json`);
  writeFileSync(path, JSON.stringify({ channels: list, keys: [{ name: 'bench', key: CLIENT_KEY }] }, null, 2));
  return path;
}

/** The bundle when built (or `BENCH_ENTRY`), else the sources through tsx. */
export function gatewayEntry() {
  if (process.env.BENCH_ENTRY) return { entry: process.env.BENCH_ENTRY, nodeArgs: [] };
  const bundle = join(root, 'dist', 'bundle', 'main.js');
  if (existsSync(bundle)) return { entry: bundle, nodeArgs: [] };
  return { entry: join(root, 'src', 'main.ts'), nodeArgs: ['--import', 'tsx'] };
}

export async function startGateway({ tmpRoot, configPath, env }) {
  const { entry, nodeArgs } = gatewayEntry();
  const gateway = await spawnGateway({ entry, tmpRoot, configPath, nodeArgs, env, cwd: root });
  await waitHealthy(gateway, 60_000);
  return gateway;
}
