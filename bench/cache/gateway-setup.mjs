/**
 * The gateways under test: one model per upstream type (`cache-<type>`), served
 * by one channel with one key (the ideal), or by 4 channels × 2 keys, all on
 * the fake upstreams. Each setup gets its own keys, so no cache carries over.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGateway, waitHealthy } from '../lib/gateway.mjs';
import { PRICES } from './prices.mjs';

/** One client key per client dialect, so that the gateway's usage report tells the pairs apart. */
export const clientKeyFor = (client) => `sk-cache-bench-${client}-0123456789`;
export const clientKeyName = (client) => `bench-${client}`;
export const ADMIN_KEY = `sk-admin-cache-bench-${randomBytes(12).toString('hex')}`;

/** The benchmark's price table, as the gateway's: what it bills can then be checked against the upstreams' counts. */
const gatewayPrice = {
  input: PRICES.inputPerM,
  output: PRICES.outputPerM,
  cacheRead: PRICES.inputPerM * PRICES.readFactor,
  cacheWrite: PRICES.inputPerM * PRICES.write5mFactor,
  cacheWrite1h: PRICES.inputPerM * PRICES.write1hFactor,
};

export const UPSTREAM_TYPES = ['anthropic', 'openai-responses', 'openai-chat', 'gemini'];
export const modelFor = (type) => `cache-${type}`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `label` names the setup's upstream keys; `channels` × `keysPerChannel` per upstream type. */
export function writeCacheConfig(dir, upstreamUrl, { label, channels, keysPerChannel }, clientNames) {
  const list = [];
  for (const type of UPSTREAM_TYPES) {
    const baseUrl = type.startsWith('openai-') ? `${upstreamUrl}/v1` : upstreamUrl;
    for (let channel = 1; channel <= channels; channel += 1) {
      const keys = Array.from({ length: keysPerChannel }, (_, index) => `${label}-${type}-${channel}${'abcdefgh'[index]}`);
      list.push({ name: `${type}-${channel}`, type, baseUrl, apiKey: keys.length === 1 ? keys[0] : keys, models: [modelFor(type)] });
    }
  }
  const path = join(dir, `switchyard-${label}.json`);
  const keys = clientNames.map((client) => ({ name: clientKeyName(client), key: clientKeyFor(client) }));
  const config = { channels: list, keys, prices: { 'cache-*': gatewayPrice }, priceCatalogue: false };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** `BENCH_ENTRY` (a bundle, or a `src/main.ts` run through tsx), else the bundle when built, else the sources through tsx. */
export function gatewayEntry() {
  const chosen = process.env.BENCH_ENTRY;
  if (chosen) return { entry: chosen, nodeArgs: chosen.endsWith('.ts') ? ['--import', 'tsx'] : [] };
  const bundle = join(root, 'dist', 'bundle', 'main.js');
  if (existsSync(bundle)) return { entry: bundle, nodeArgs: [] };
  return { entry: join(root, 'src', 'main.ts'), nodeArgs: ['--import', 'tsx'] };
}

export async function startGateway({ tmpRoot, configPath, env }) {
  const { entry, nodeArgs } = gatewayEntry();
  const gateway = await spawnGateway({ entry, tmpRoot, configPath, nodeArgs, env: { ...env, SWITCHYARD_ADMIN_KEY: ADMIN_KEY }, cwd: root });
  await waitHealthy(gateway, 60_000);
  return gateway;
}
