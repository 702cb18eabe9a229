/**
 * GET /metrics in the Prometheus text format, parsed by a Prometheus text
 * parser: it needs the admin key, its counters move with traffic, and it
 * shows breaker state and task counts; and the access log writes one line
 * per request, without the query string.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }>;
}

let gw: TestGateway;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  gw = await startGateway({ logger, config: { prices: { 'metric-*': { input: 1, output: 2 } } } });
});
afterAll(() => gw?.close());

const ask = (model: string, query = '') =>
  fetch(`${gw.url}/v1/messages${query}`, {
    method: 'POST',
    headers: { 'x-api-key': gw.clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'count me' }] }),
  }).then(async (response) => {
    await response.text();
    return response.status;
  });

async function scrape(): Promise<Map<string, Family>> {
  const response = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminKey}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const families = parsePrometheusTextFormat(await response.text()) as Family[];
  return new Map(families.map((family) => [family.name, family]));
}

const requestsFor = (families: Map<string, Family>, model: string) =>
  Number(families.get('switchyard_requests_total')?.metrics.find((m) => m.labels?.gen_ai_request_model === model && m.labels?.status === '200')?.value ?? 0);

describe('GET /metrics', () => {
  it('refuses a scrape without the admin key', async () => {
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.clientKey}` } })).status).toBe(401);
  });

  it('counts requests, durations, tokens and spend, moving with traffic', async () => {
    expect(await ask('metric-model')).toBe(200);
    const before = await scrape();
    expect(await ask('metric-model')).toBe(200);
    expect(await ask('metric-model')).toBe(200);
    const after = await scrape();
    expect(requestsFor(after, 'metric-model') - requestsFor(before, 'metric-model')).toBe(2);
    expect(after.get('gen_ai_client_operation_duration_seconds')!.type).toBe('HISTOGRAM');
    expect(after.get('gen_ai_client_token_usage')!.type).toBe('HISTOGRAM');
    // The parser keeps no labels of histogram series: read those from the text.
    const text = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminKey}` } })).text();
    expect(text).toMatch(/gen_ai_client_operation_duration_seconds_count\{gen_ai_operation_name="chat",family="messages",gen_ai_request_model="metric-model",channel="[^"]+",status="200"\} [1-9]/);
    expect(text).toMatch(/gen_ai_client_token_usage_count\{gen_ai_token_type="input",family="messages",gen_ai_request_model="metric-model"\} [1-9]/);
    expect(text).toMatch(/gen_ai_client_token_usage_count\{gen_ai_token_type="output",family="messages",gen_ai_request_model="metric-model"\} [1-9]/);
    expect(Number(after.get('switchyard_spend_usd_total')!.metrics[0].value)).toBeGreaterThan(0);
    expect(after.get('switchyard_channel_breaker_state')).toBeDefined();
    expect(after.get('switchyard_tasks')).toBeDefined();
  });

  it('counts rate-limit refusals', async () => {
    const created = await gw.admin('POST', '/keys', { name: 'limited', rpm: 1 });
    const key = created.body.key as string;
    const send = () =>
      fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'metric-model', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
      }).then((response) => response.status);
    expect([await send(), await send()]).toEqual([200, 429]);
    const families = await scrape();
    const limited = families.get('switchyard_limit_rejections_total')!.metrics.find((m) => m.labels?.reason === 'rate_limited');
    expect(Number(limited?.value)).toBeGreaterThanOrEqual(1);
  });
});

describe('the access log', () => {
  it('writes one line per request with the key name, model and channel, and never the query string', async () => {
    lines.length = 0;
    expect(await ask('metric-model', '?beta=true&key=secret-in-query')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const access = lines.filter((line) => line.msg === 'access');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ method: 'POST', path: '/v1/messages', status: 200, key: 'default', model: 'metric-model', attempts: 1 });
    expect(typeof access[0].durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });
});

describe('metrics turned off', () => {
  it('records nothing and says so at /metrics', async () => {
    const off = await startGateway({ env: { SWITCHYARD_METRICS: 'off' } });
    try {
      expect(off.gateway.ctx.metrics.enabled).toBe(false);
      const response = await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${off.adminKey}` } });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('SWITCHYARD_METRICS=off');
      expect((await fetch(`${off.url}/metrics`)).status).toBe(401);
    } finally {
      await off.close();
    }
  });
});
