/**
 * What the metrics cost a request (`node bench/metrics-cost.mjs`, after
 * `npm run build`): the time of one settlement's observation (the counters
 * and histograms a chat request moves), over BENCH_METRICS_CALLS calls
 * (default 500,000) spread over 20 models, 4 channels and 3 statuses, and the
 * time to render /metrics afterwards. Compare the per-call time with the
 * gateway's CPU per request (about 550 µs on these machines, bench/README.md):
 * a whole-run A/B (SWITCHYARD_METRICS=off) cannot see a difference this small
 * through the run-to-run noise.
 */
import { GatewayMetrics } from '../dist/src/observe/metrics.js';

const CALLS = Number(process.env.BENCH_METRICS_CALLS ?? 500_000);
const metrics = new GatewayMetrics({ breakers: () => [], tasks: async () => [], deliveries: async () => [] });

const observations = Array.from({ length: 240 }, (_, i) => ({
  family: ['messages', 'chat-completions', 'responses'][i % 3],
  operation: 'chat',
  model: `model-${i % 20}`,
  channel: `chn_${i % 4}`,
  status: [200, 200, 200, 429, 502][i % 5],
  durationMs: 100 + (i % 900),
  firstByteMs: i % 2 ? 40 + i : undefined,
  inputTokens: 100 + i,
  outputTokens: 20 + i,
  cost: 0.001,
  keyName: `key-${i % 10}`,
  failovers: i % 7 === 0 ? 1 : 0,
  limitKind: i % 5 === 3 ? 'rate_limited' : undefined,
}));

for (let i = 0; i < 50_000; i++) metrics.observe(observations[i % observations.length]); // warm-up
const started = process.hrtime.bigint();
for (let i = 0; i < CALLS; i++) metrics.observe(observations[i % observations.length]);
const perCallNs = Number(process.hrtime.bigint() - started) / CALLS;
const renderStarted = performance.now();
const text = await metrics.text();
const renderMs = performance.now() - renderStarted;
console.log(`one observation: ${(perCallNs / 1000).toFixed(2)} µs (${CALLS.toLocaleString('en-US')} calls); /metrics render: ${renderMs.toFixed(1)} ms for ${(text.length / 1024).toFixed(0)} kB`);
