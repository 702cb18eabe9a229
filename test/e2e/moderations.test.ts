/**
 * `POST /v1/moderations` through the official OpenAI client's
 * `moderations.create`, on SQLite and PostgreSQL: text, an array of texts
 * and a multimodal input on the simulator (a fixed word list flags; every
 * category scored), the body passed as it is to a loopback fake of OpenAI's
 * own endpoint on `openai-chat` and `openai-responses` channels, 400s naming
 * the field, the 404 of a model no moderations channel serves, failover, and
 * the log rows: free unless a price is set.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_CATEGORIES } from '../../src/dialects/moderations/wire.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-moderate-01';

const openAiAnswer = {
  id: 'modr-upstream-1',
  model: 'omni-moderation-2024-09-26',
  results: [
    {
      flagged: false,
      categories: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, false])),
      category_scores: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, 0.0001])),
      category_applied_input_types: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, ['text']])),
    },
  ],
};

describe.each(ENGINES)('moderations on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(openAiAnswer) }));
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'openai', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['omni-moderation-2024-09-26'], settings: { moderationsEndpoint: true } },
          { name: 'responses', type: 'openai-responses', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-resp', models: ['text-moderation-latest'], settings: { moderationsEndpoint: true } },
          // Not OpenAI's address and no setting: this server is not asked for moderations.
          { name: 'local', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['local-moderation'] },
          { name: 'down', type: 'simulator', models: ['moderation-failover'], priority: 10, settings: { failStatus: 500 } },
          { name: 'sim', type: 'simulator', models: ['omni-moderation-latest', 'priced-moderation', 'moderation-failover'], priority: 1 },
        ],
        keys: [{ name: 'client', key: KEY }],
        prices: { 'priced-moderation': { input: 3, output: 0 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('classifies a text on the simulator with the default model: a listed word flags its category, every category scored', async () => {
    const answer = await client.moderations.create({ input: 'I will kill the lights' });
    expect(answer.model).toBe('omni-moderation-latest');
    expect(answer.id).toMatch(/^modr-/);
    const [result] = answer.results;
    expect(result.flagged).toBe(true);
    expect(result.categories.violence).toBe(true);
    expect(result.categories.hate).toBe(false);
    expect(Object.keys(result.category_scores).sort()).toEqual([...MODERATION_CATEGORIES].sort());
    expect(result.category_scores.violence).toBeGreaterThan(0.9);
    expect(result.category_applied_input_types.violence).toEqual(['text']);
    const again = await client.moderations.create({ input: 'I will kill the lights' });
    expect(again.results).toEqual(answer.results);
  });

  it('gives an array of texts one result each, and a multimodal input one result', async () => {
    const many = await client.moderations.create({ model: 'omni-moderation-latest', input: ['a calm sentence', 'you idiot'] });
    expect(many.results.map((r) => r.flagged)).toEqual([false, true]);
    expect(many.results[1].categories.harassment).toBe(true);
    const image = await client.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'what is in this picture' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    });
    expect(image.results).toHaveLength(1);
    expect(image.results[0].flagged).toBe(false);
    expect(image.results[0].category_applied_input_types.violence).toEqual(['text', 'image']);
    expect(image.results[0].category_applied_input_types.hate).toEqual(['text']);
  });

  it('logs the moderations family: free without a price, priced per input token with one', async () => {
    await client.moderations.create({ input: 'count these words please' });
    const [free] = await logsFor('omni-moderation-latest');
    expect(free).toMatchObject({ family: 'moderations', httpStatus: 200, cost: 0, outputTokens: 0 });
    expect(free.inputTokens).toBeGreaterThan(0);
    await client.moderations.create({ model: 'priced-moderation', input: 'count these words please' });
    const [priced] = await logsFor('priced-moderation');
    expect(priced.cost).toBeCloseTo((priced.inputTokens * 3) / 1_000_000, 12);
  });

  it("passes the body as it is to OpenAI's moderations on openai-chat and openai-responses channels", async () => {
    const answer = await client.moderations.create({ model: 'omni-moderation-2024-09-26', input: ['hello there'] });
    expect(answer).toMatchObject(openAiAnswer);
    let seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/moderations');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.json()).toEqual({ model: 'omni-moderation-2024-09-26', input: ['hello there'] });
    await client.moderations.create({ model: 'text-moderation-latest', input: 'hi' });
    seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/moderations');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-resp');
    const [row] = await logsFor('omni-moderation-2024-09-26');
    expect(row).toMatchObject({ family: 'moderations', httpStatus: 200, cost: 0 });
  });

  it('answers bad input with a 400 naming the field, and 404 for a model no moderations channel serves', async () => {
    const empty = await client.moderations.create({ input: [] }).catch((e) => e);
    expect(empty.status).toBe(400);
    expect(empty.error.param).toBe('input');
    const part = await client.moderations.create({ input: [{ type: 'image_url', image_url: {} } as never] }).catch((e) => e);
    expect(part.status).toBe(400);
    expect(part.error.param).toMatch(/^input/);
    const before = upstream.requests.length;
    const missing = await client.moderations.create({ model: 'local-moderation', input: 'x' }).catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('fails over from a failing channel to the next', async () => {
    const answer = await client.moderations.create({ model: 'moderation-failover', input: 'x' });
    expect(answer.results).toHaveLength(1);
    const [row] = await logsFor('moderation-failover');
    expect(row).toMatchObject({ family: 'moderations', httpStatus: 200, triedChannels: ['down', 'sim'] });
  });
});
