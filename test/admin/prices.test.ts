/**
 * Prices through the admin API, on SQLite and PostgreSQL: set, replace, list
 * and delete (patterns and `*` URL-encoded in the path), bad bodies refused
 * naming the field, what a model would be charged at and from where, the
 * catalogue endpoints with no catalogue set, config-owned prices marked, a
 * hand-edited row skipped alone, and a price set here charged from the next
 * request on (the request log's cost and the key's spend).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceCatalogue } from '../../src/billing/prices.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-admin-prices-0001';
const config = {
  channels: [{ name: 'sim', type: 'simulator', models: ['*'] }],
  keys: [{ name: 'payer', key: KEY }],
  prices: { 'file-model': { input: 1, output: 2 } },
  // These tests begin without a catalogue (one is set where a test says so).
  priceCatalogue: false,
};

const path = (model: string) => `/prices/${encodeURIComponent(model)}`;

describe.each(ENGINES)('prices through the admin API on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config });
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function chat(model: string): Promise<{ input_tokens: number; output_tokens: number }> {
    const response = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 40, messages: [{ role: 'user', content: 'what does this cost?' }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { usage: { input_tokens: number; output_tokens: number } }).usage;
  }

  /** The cost of the `count`th request logged for `model`, once it is logged. */
  async function loggedCost(model: string, count: number): Promise<number> {
    for (let attempt = 0; attempt < 80; attempt++) {
      const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
      if (rows.length >= count) return rows[0].cost;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`request ${count} for ${model} not logged`);
  }

  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((key: { name: string }) => key.name === 'payer').used as number;

  it('lists the config file’s prices as config-owned, with no catalogue set', async () => {
    const answer = await gw.admin('GET', '/prices');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      data: [{ model: 'file-model', price: { input: 1, output: 2 }, source: 'config', configOwned: true, updatedAt: expect.any(Number) }],
      problems: [],
      catalogue: null,
    });
    const settings = await gw.admin('GET', '/settings');
    expect(settings.body.configOwned.prices).toEqual({ 'file-model': ['price'] });
  });

  it('sets, replaces and deletes prices, patterns and * included', async () => {
    const set = await gw.admin('PUT', path('claude-*'), { input: 3, output: 15, cacheWrite1h: 6, reasoning: 20, tiers: [{ above: 200000, input: 6 }] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ model: 'claude-*', source: 'admin', configOwned: false, price: { input: 3, output: 15, cacheWrite1h: 6, reasoning: 20, tiers: [{ above: 200000, input: 6 }] } });
    expect((await gw.admin('PUT', path('*'), { input: 0.5 })).status).toBe(200);
    expect((await gw.admin('PUT', path('vendor/model-x'), { perCall: 0.04 })).body).toMatchObject({ model: 'vendor/model-x', price: { perCall: 0.04 } });

    const replaced = await gw.admin('PUT', path('claude-*'), { input: 4 });
    expect(replaced.body.price).toEqual({ input: 4 });
    const list = (await gw.admin('GET', '/prices')).body.data.map((row: { model: string; source: string }) => `${row.model}:${row.source}`);
    expect(list.sort()).toEqual(['*:admin', 'claude-*:admin', 'file-model:config', 'vendor/model-x:admin']);

    expect((await gw.admin('DELETE', path('vendor/model-x'))).body).toEqual({ model: 'vendor/model-x', deleted: true });
    expect((await gw.admin('DELETE', path('*'))).status).toBe(200);
    const missing = await gw.admin('DELETE', path('*'));
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found', message: 'no price set for "*"' });
  });

  it('refuses a bad price or model with a 400 naming the field', async () => {
    const negative = await gw.admin('PUT', path('m'), { input: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.error).toMatchObject({ type: 'invalid_request', param: 'input' });
    const unknown = await gw.admin('PUT', path('m'), { inputt: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('inputt');
    const tier = await gw.admin('PUT', path('m'), { tiers: [{ above: 0 }] });
    expect(tier.body.error.param).toBe('tiers.0.above');
    const pattern = await gw.admin('PUT', path('a*b'), { input: 1 });
    expect(pattern.status).toBe(400);
    expect(pattern.body.error).toMatchObject({ param: 'model', message: 'model: may hold `*` only at its end' });
    expect((await gw.admin('GET', '/prices')).body.data.some((row: { model: string }) => row.model === 'm')).toBe(false);
  });

  it('quotes what a model would be charged at and where the price comes from', async () => {
    await gw.admin('PUT', path('quoted-*'), { input: 7 });
    expect((await gw.admin('GET', '/prices/quote?model=quoted-one')).body).toEqual({
      model: 'quoted-one',
      upstreamModel: null,
      quote: { price: { input: 7 }, source: 'admin', matched: 'quoted-*' },
    });
    expect((await gw.admin('GET', '/prices/quote?model=file-model&upstreamModel=other')).body.quote).toMatchObject({ source: 'config', matched: 'file-model' });
    expect((await gw.admin('GET', '/prices/quote?model=nowhere')).body.quote).toBeNull();
    expect((await gw.admin('GET', '/prices/quote')).body.error.param).toBe('model');
  });

  it('answers the catalogue endpoint with no catalogue set', async () => {
    expect((await gw.admin('GET', '/prices/catalogue')).body).toEqual({ about: null, data: [] });
  });

  it('lists a catalogue when one is set, and quotes from it what the operator priced nowhere', async () => {
    const catalogue: PriceCatalogue = {
      about: { package: 'test-prices', version: '1.2.3', date: '2026-11-01' },
      priceOf: (model) => (model.startsWith('cat-model') ? { input: 0.25, output: 1 } : undefined),
      list: () => [{ model: 'cat-model', provider: 'testing', name: 'Cat Model', price: { input: 0.25, output: 1 } }],
    };
    gw.gateway.ctx.prices.useCatalogue(catalogue);
    try {
      expect((await gw.admin('GET', '/prices/catalogue')).body).toEqual({ about: catalogue.about, data: catalogue.list() });
      expect((await gw.admin('GET', '/prices')).body.catalogue).toEqual(catalogue.about);
      expect((await gw.admin('GET', '/prices/quote?model=alias&upstreamModel=cat-model-2')).body.quote).toEqual({ price: { input: 0.25, output: 1 }, source: 'catalogue', matched: 'cat-model-2' });
      // An operator's price wins over the catalogue's.
      await gw.admin('PUT', path('cat-model'), { input: 5 });
      expect((await gw.admin('GET', '/prices/quote?model=cat-model')).body.quote).toMatchObject({ source: 'admin', price: { input: 5 } });
      await gw.admin('DELETE', path('cat-model'));
    } finally {
      gw.gateway.ctx.prices.useCatalogue(undefined);
    }
  });

  it('charges the next request at a price set through the API', async () => {
    const model = 'charged-model';
    await chat(model);
    expect(await loggedCost(model, 1)).toBe(0);
    const before = await used();

    expect((await gw.admin('PUT', path(model), { input: 1000, output: 5000 })).status).toBe(200);
    const usage = await chat(model);
    const expected = (usage.input_tokens * 1000 + usage.output_tokens * 5000) / 1_000_000;
    expect(expected).toBeGreaterThan(0);
    expect(await loggedCost(model, 2)).toBeCloseTo(expected, 12);
    expect((await used()) - before).toBeCloseTo(expected, 9);

    // Deleted: nothing else prices the model, so the next request costs nothing.
    await gw.admin('DELETE', path(model));
    await chat(model);
    expect(await loggedCost(model, 3)).toBe(0);
  });

  it('skips a stored price edited by hand into something that does not parse, and names it', async () => {
    const store = await place.openStore();
    try {
      await store.db.insertInto('prices').values({ model: 'broken-model', price: '{"input": "lots"}', source: 'admin', updated_at: Date.now() }).execute();
      await store.db.insertInto('prices').values({ model: 'half-json', price: '{"input":', source: 'admin', updated_at: Date.now() }).execute();
    } finally {
      await store.close();
    }
    const answer = (await gw.admin('GET', '/prices')).body;
    expect(answer.problems).toEqual([
      { model: 'broken-model', problem: expect.stringContaining('price: input:') },
      { model: 'half-json', problem: 'price: not valid JSON' },
    ]);
    expect(answer.data.some((row: { model: string }) => row.model === 'broken-model')).toBe(false);
    // The rest still apply: a write refreshes the table, which keeps every good price.
    expect((await gw.admin('PUT', path('still-priced'), { input: 9 })).status).toBe(200);
    expect((await gw.admin('GET', '/prices/quote?model=still-priced')).body.quote.price).toEqual({ input: 9 });
    expect((await gw.admin('GET', '/prices/quote?model=file-model')).body.quote.source).toBe('config');
    expect(gw.gateway.ctx.storedPrices.problems().map((problem) => problem.model)).toEqual(['broken-model', 'half-json']);

    // Deleted through the API like any other price, and the problem goes with it.
    expect((await gw.admin('DELETE', path('half-json'))).status).toBe(200);
    expect((await gw.admin('DELETE', path('broken-model'))).status).toBe(200);
    expect((await gw.admin('GET', '/prices')).body.problems).toEqual([]);
    expect(gw.gateway.ctx.storedPrices.problems()).toEqual([]);
    expect((await gw.admin('DELETE', '/prices/%00')).body.error).toMatchObject({ type: 'invalid_request', param: 'model' });
  });
});
