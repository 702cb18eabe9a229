#!/usr/bin/env node
/**
 * The prompt-cache benchmark (`npm run bench:cache`): sessions of agent-shaped
 * turns from every client dialect to every upstream type, through gateways of
 * three setups, against fake upstreams that cache per key. See bench/README.md,
 * "Prompt caches across channels and keys".
 *
 * Knobs: BENCH_CACHE_TURNS (30), BENCH_CACHE_SESSIONS per pair and setup (4),
 * BENCH_CACHE_CONCURRENCY sessions at once (8), BENCH_CACHE_SETUPS (a,b,c),
 * BENCH_CACHE_CLIENTS (messages,responses,chat,generate),
 * BENCH_CACHE_UPSTREAMS (anthropic,openai-responses,openai-chat,gemini),
 * BENCH_CACHE_TOOL_EVERY (3: every third answer also calls a tool; 0: never),
 * BENCH_CACHE_CLAUDE_TTL (5m; 1h: Claude Code's breakpoints ask for the one-hour cache),
 * BENCH_ENTRY (a gateway bundle; default dist/bundle/main.js, else the sources through tsx).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUpOnExit, runMain, stopProcess } from '../lib/processes.mjs';
import { CLIENTS } from './clients.mjs';
import { createCacheUpstream } from './fake-upstream.mjs';
import { billedUsage } from './billing.mjs';
import { UPSTREAM_TYPES, clientKeyFor, clientKeyName, gatewayEntry, modelFor, startGateway, writeCacheConfig } from './gateway-setup.mjs';
import { PRICES } from './prices.mjs';
import { renderMarkdown, summarise } from './report.mjs';
import { closeClients, runSession } from './session.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const list = (name, fallback) => (process.env[name] ? process.env[name].split(',').map((item) => item.trim()) : fallback);
const TURNS = Number(process.env.BENCH_CACHE_TURNS ?? 30);
const SESSIONS = Number(process.env.BENCH_CACHE_SESSIONS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CACHE_CONCURRENCY ?? 8);
const CLAUDE_TTL = process.env.BENCH_CACHE_CLAUDE_TTL === '1h' ? '1h' : '5m';
const TOOL_EVERY = Number(process.env.BENCH_CACHE_TOOL_EVERY ?? 3);
const WATCHDOG_MS = 20 * 60_000;

const SETUPS = {
  a: { label: 'a', title: 'one channel, one key', channels: 1, keysPerChannel: 1, env: {} },
  b: { label: 'b', title: '4 channels × 2 keys, affinity off', channels: 4, keysPerChannel: 2, env: { SWITCHYARD_SESSION_AFFINITY: 'off' } },
  c: { label: 'c', title: '4 channels × 2 keys, affinity on (default)', channels: 4, keysPerChannel: 2, env: {} },
};
const NATIVE = { messages: 'anthropic', responses: 'openai-responses', chat: 'openai-chat', generate: 'gemini' };

/** Runs `tasks` (functions returning promises), at most `limit` at once. */
async function pooled(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

async function main() {
  const watchdog = setTimeout(() => {
    process.stderr.write('[cache-bench] watchdog: the run took too long\n');
    process.exit(2);
  }, WATCHDOG_MS);
  watchdog.unref();
  const dirs = cleanUpOnExit('cache-bench');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'switchyard-cache-bench-'));
  dirs.push(tmpRoot);

  const clients = CLIENTS.filter((client) =>
    list(
      'BENCH_CACHE_CLIENTS',
      CLIENTS.map((c) => c.name),
    ).includes(client.name),
  );
  const upstreams = UPSTREAM_TYPES.filter((type) => list('BENCH_CACHE_UPSTREAMS', UPSTREAM_TYPES).includes(type));
  const setups = list('BENCH_CACHE_SETUPS', ['a', 'b', 'c']).map((name) => SETUPS[name]);

  const upstream = createCacheUpstream({ toolEvery: TOOL_EVERY });
  const upstreamUrl = await upstream.listen();
  const sessions = new Map(); // marker → { setup, client, upstream }
  const outcomes = [];
  const billed = {}; // setup label → what the gateway billed per client key and model
  const started = Date.now();

  for (const setup of setups) {
    const configPath = writeCacheConfig(
      tmpRoot,
      upstreamUrl,
      setup,
      clients.map((client) => client.name),
    );
    const gateway = await startGateway({ tmpRoot, configPath, env: setup.env });
    try {
      const tasks = [];
      for (let index = 0; index < SESSIONS; index += 1) {
        for (const client of clients) {
          for (const type of upstreams) {
            const marker = `cbs_${randomBytes(6).toString('hex')}`;
            sessions.set(marker, { setup: setup.label, client: client.name, upstream: type });
            tasks.push(async () => {
              const outcome = await runSession({
                client,
                baseUrl: gateway.baseUrl,
                key: clientKeyFor(client.name),
                model: modelFor(type),
                marker,
                turns: TURNS,
                stream: index % 2 === 0,
                options: { ttl: CLAUDE_TTL },
              });
              outcomes.push({ marker, ...outcome });
            });
          }
        }
      }
      const setupStart = Date.now();
      await pooled(tasks, CONCURRENCY);
      billed[setup.label] = await billedUsage(gateway.baseUrl);
      process.stderr.write(`[cache-bench] setup ${setup.label} (${setup.title}): ${tasks.length} sessions in ${((Date.now() - setupStart) / 1000).toFixed(1)} s\n`);
    } finally {
      await stopProcess(gateway.child);
    }
  }
  await closeClients();
  await upstream.close();

  const pairs = [];
  for (const client of clients) {
    for (const type of upstreams) {
      const pair = { client: client.name, agent: client.agent, upstream: type, native: NATIVE[client.name] === type, setups: {} };
      for (const setup of setups) {
        const mine = outcomes.filter((outcome) => {
          const meta = sessions.get(outcome.marker);
          return meta.setup === setup.label && meta.client === client.name && meta.upstream === type;
        });
        const markers = new Set(mine.map((outcome) => outcome.marker));
        pair.setups[setup.label] = summarise({
          records: upstream.records.filter((row) => markers.has(row.marker)),
          reported: mine.map((outcome) => outcome.reported),
          sessions: mine.length,
          errors: mine.flatMap((outcome) => (outcome.error ? [outcome.error] : [])),
          billed: billed[setup.label].get(`${clientKeyName(client.name)}\u0000${modelFor(type)}`),
        });
      }
      pairs.push(pair);
    }
  }

  const entry = gatewayEntry();
  const settings = {
    date: new Date().toISOString(),
    turns: TURNS,
    sessions: SESSIONS,
    claudeCodeTtl: CLAUDE_TTL,
    toolEvery: TOOL_EVERY,
    concurrency: CONCURRENCY,
    entry: relative(root, entry.entry) + (entry.nodeArgs.length ? ` (${entry.nodeArgs.join(' ')})` : ''),
    setups: Object.fromEntries(setups.map((setup) => [setup.label, { title: setup.title, channels: setup.channels, keysPerChannel: setup.keysPerChannel, env: setup.env }])),
    prices: PRICES,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  const markdown = renderMarkdown({ pairs, settings });
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'cache-latest.json'), `${JSON.stringify({ settings, pairs }, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'cache-latest.md'), `${markdown}\n`);
  process.stdout.write(`${markdown}\n`);
}

runMain('cache-bench', main);
