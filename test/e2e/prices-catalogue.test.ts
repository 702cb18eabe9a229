/**
 * Prices end to end, on both engines: a well-known model priced by the
 * built-in catalogue with its one-hour cache writes apart (a fake Anthropic
 * upstream reporting `cache_creation`, plain, streamed and translated), a
 * model priced nowhere logged as unpriced with one warning and counted in
 * /admin/usage, warnings for keys whose quota cannot hold, and the catalogue
 * turned off; an image action without a price, unpriced too.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { igClient, pngDataUrl } from '../families/images/support.js';
import { startGateway, type StartOptions, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-prices-client-0001';
const USAGE = {
  input_tokens: 100,
  output_tokens: 50,
  cache_read_input_tokens: 500,
  cache_creation_input_tokens: 4_000,
  cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 3_000 },
};
// claude-sonnet-4-5 in @pydantic/genai-prices 0.1.8: input 3, output 15, cache read 0.3, cache write 3.75, one-hour 6.
const SONNET_COST = (100 * 3 + 50 * 15 + 500 * 0.3 + 1_000 * 3.75 + 3_000 * 6) / 1e6;

function anthropicAnswer(request: RecordedRequest) {
  const body = request.json<{ model: string; stream?: boolean }>();
  const message = { id: 'msg_prices', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: 'priced' }], stop_reason: 'end_turn', stop_sequence: null };
  if (!body.stream) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...message, usage: USAGE }) };
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: [
      event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } } }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'priced' } }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 50 } }),
      event('message_stop', {}),
    ],
  };
}

/** A logger whose warnings the test reads. */
function capturingLogger() {
  const lines: Array<{ msg: string; model?: string; key?: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 80 && !done(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

const freshSchema = freshSchemas('prices');
const engines = [
  { engine: 'sqlite', skip: false, settings: () => ({}) },
  { engine: 'postgres', skip: skipPostgres, settings: () => ({ databaseUrl: postgresUrl, databaseSchema: freshSchema() }) },
];

describe.each(engines)('prices on $engine', ({ skip, settings }) => {
  let upstream: FakeUpstream;
  let gw: TestGateway;
  const log = capturingLogger();

  beforeAll(async () => {
    if (skip) return;
    upstream = await startFakeUpstream(anthropicAnswer);
    gw = await startGateway({
      settings: settings(),
      logger: log.logger,
      config: {
        channels: [
          {
            name: 'anthropic',
            type: 'anthropic',
            baseUrl: upstream.origin,
            apiKey: 'sk-upstream',
            models: ['claude-sonnet-4-5-20250929', 'house-model-x', 'house-model-y', 'house-*'],
            modelMapping: { 'team-default': 'claude-sonnet-4-5' },
          },
        ],
        keys: [
          { name: 'client', key: KEY },
          { name: 'capped-by-file', key: 'sk-prices-capped-0001', quota: 5, models: ['house-model-y'] },
        ],
        prices: { 'house-model-y': { input: 1, output: 2 } },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const messages = (model: string, stream = false) =>
    fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, stream, messages: [{ role: 'user', content: 'price this' }] }),
    });
  const rowsFor = (model: string, count = 1) =>
    until(
      async () => (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data as any[],
      (rows) => rows.length >= count,
    );

  it.skipIf(skip)('prices a dated Claude id from the catalogue, one-hour cache writes apart, plain and streamed', async () => {
    const plain = await messages('claude-sonnet-4-5-20250929');
    expect(plain.status).toBe(200);
    // Pass-through: the client gets the upstream's usage as it was, split included.
    expect(((await plain.json()) as any).usage.cache_creation).toEqual(USAGE.cache_creation);
    const streamed = await messages('claude-sonnet-4-5-20250929', true);
    expect(await streamed.text()).toContain('message_stop');
    const rows = await rowsFor('claude-sonnet-4-5-20250929', 2);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ cacheWriteTokens: 4_000, cacheWrite1hTokens: 3_000, cacheReadTokens: 500, unpriced: false });
      expect(row.cost).toBeCloseTo(SONNET_COST, 12);
    }
  });

  it.skipIf(skip)('keeps the split through a translated answer, priced by the upstream model', async () => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'team-default', messages: [{ role: 'user', content: 'price this' }] }),
    });
    expect(response.status).toBe(200);
    const [row] = await rowsFor('team-default');
    expect(row).toMatchObject({ upstreamModel: 'claude-sonnet-4-5', cacheWrite1hTokens: 3_000, unpriced: false });
    expect(row.cost).toBeCloseTo(SONNET_COST, 12);
  });

  it.skipIf(skip)('logs a model priced nowhere as unpriced, warns once, and counts it in /admin/usage', async () => {
    const since = Date.now() - 60_000;
    for (let i = 0; i < 2; i++) expect((await messages('house-model-x')).status).toBe(200);
    const rows = await rowsFor('house-model-x', 2);
    expect(rows.map((row) => [row.cost, row.unpriced])).toEqual([
      [0, true],
      [0, true],
    ]);
    const warnings = log.lines.filter((line) => line.model === 'house-model-x' && /has no price/.test(line.msg) && line.key === undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/neither among the operator's prices nor in the built-in catalogue.*`prices`/);

    const usage = (await gw.admin('GET', `/usage?since=${since}`)).body.data as any[];
    expect(usage.find((row) => row.model === 'house-model-x')).toMatchObject({ requests: 2, unpricedRequests: 2 });
    expect(usage.find((row) => row.model === 'claude-sonnet-4-5-20250929')).toMatchObject({ unpricedRequests: 0, cacheWrite1hTokens: 6_000 });
    const series = (await gw.admin('GET', `/usage/series?since=${since}&until=${Date.now() + 60_000}&step=60000&by=model`)).body;
    expect(series.totals.unpricedRequests).toBe(2);
    expect(series.series.find((entry: any) => entry.group === 'house-model-x').totals.unpricedRequests).toBe(2);
  });

  it.skipIf(skip)('warns about a key whose quota cannot hold, naming the models, in the answer and the log', async () => {
    const capped = await gw.admin('POST', '/keys', { name: 'capped', quota: 10, models: ['house-*', 'claude-sonnet-4-5-20250929'] });
    expect(capped.status).toBe(201);
    expect(capped.body.warnings).toHaveLength(1);
    expect(capped.body.warnings[0]).toMatch(/"house-model-x" has no price/);
    expect(log.lines.filter((line) => line.key === 'capped').map((line) => line.model)).toEqual(['house-model-x']);

    // Without a quota nothing is at stake; every model priced: nothing to say.
    expect((await gw.admin('POST', '/keys', { name: 'open', models: ['house-*'] })).body.warnings).toBeUndefined();
    const priced = await gw.admin('POST', '/keys', { name: 'priced', quota: 10, models: ['claude-sonnet-4-5-20250929', 'house-model-y'] });
    expect(priced.body.warnings).toBeUndefined();
    const changed = await gw.admin('PATCH', `/keys/${priced.body.id}`, { models: ['house-model-x', 'unknown-exact'] });
    expect(changed.body.warnings).toEqual([expect.stringMatching(/"house-model-x"/), expect.stringMatching(/"unknown-exact"/)]);
  });

  it.skipIf(skip)("checks the config file's keys with a quota once the instance serves", async () => {
    // The file's key may use only a priced model: no warning; the catalogue was read meanwhile.
    await until(
      async () => gw.gateway.ctx.prices.catalogueAbout(),
      (about) => about !== undefined,
    );
    expect(log.lines.filter((line) => /config file keys/.test(line.msg))).toEqual([]);
    expect(gw.gateway.ctx.prices.catalogueAbout()).toEqual({ package: '@pydantic/genai-prices', version: '0.1.8', date: '2026-09-23' });
  });
});

describe('the catalogue turned off', () => {
  const start = async (options: StartOptions, upstream: FakeUpstream) => {
    const log = capturingLogger();
    const gw = await startGateway({
      ...options,
      logger: log.logger,
      config: {
        ...options.config,
        channels: [{ name: 'anthropic', type: 'anthropic', baseUrl: upstream.origin, apiKey: 'sk-upstream', models: ['claude-*'] }],
        keys: [{ name: 'client', key: KEY, quota: 1, models: ['claude-sonnet-4-5'] }],
      },
    });
    return { gw, log };
  };

  it.each([
    ['SWITCHYARD_PRICE_CATALOGUE=off', { env: { SWITCHYARD_PRICE_CATALOGUE: 'off' } }],
    ['priceCatalogue: false', { config: { priceCatalogue: false } }],
  ] as Array<[string, StartOptions]>)('%s: only the operator prices, and the config file key is warned about', async (_name, options) => {
    const upstream = await startFakeUpstream(anthropicAnswer);
    const { gw, log } = await start(options, upstream);
    try {
      const response = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(response.status).toBe(200);
      const rows = await until(
        async () => (await gw.admin('GET', '/logs?model=claude-sonnet-4-5')).body.data as any[],
        (found) => found.length > 0,
      );
      expect(rows[0]).toMatchObject({ cost: 0, unpriced: true });
      expect(gw.gateway.ctx.prices.catalogueAbout()).toBeUndefined();
      const fileKeyWarning = await until(
        async () => log.lines.filter((line) => /config file keys/.test(line.msg)),
        (found) => found.length > 0,
      );
      expect(fileKeyWarning[0]).toMatchObject({ model: 'claude-sonnet-4-5' });
      expect(fileKeyWarning[0]!.msg).toMatch(/the built-in catalogue is off/);
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});

describe('task actions without a price', () => {
  it('logs an image action priced nowhere as unpriced, and a priced one at its price', async () => {
    const log = capturingLogger();
    const gw = await startGateway({
      logger: log.logger,
      config: {
        channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 0.2, imageSize: 64, accounts: [{ instanceId: 'acc-1', channelId: 'room-1' }] } }],
        keys: [{ name: 'images', key: KEY }],
        prices: { ig_imagine: { perCall: 0.1 } },
      },
    });
    try {
      const ig = igClient(gw.url, KEY);
      const submitted = await ig.post('/ig/submit/imagine', { prompt: 'a priced lighthouse' });
      expect(submitted.status).toBe(200);
      const uploaded = await ig.post('/ig/submit/upload-discord-images', { base64Array: [pngDataUrl(10, 20, 30)] });
      expect(uploaded.status).toBe(200);
      const rowOf = async (model: string) =>
        (
          await until(
            async () => (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[],
            (rows) => rows.length > 0,
          )
        )[0];
      expect(await rowOf('ig_imagine')).toMatchObject({ cost: 0.1, unpriced: false });
      expect(await rowOf('ig_upload')).toMatchObject({ cost: 0, unpriced: true });
      expect(log.lines.filter((line) => line.model === 'ig_upload' && /has no price/.test(line.msg))).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });
});
