/**
 * Anthropic Message Batches served through Anthropic's own Message Batches
 * API (a loopback fake, anthropic-batch-fake.ts), with the official
 * `@anthropic-ai/sdk`, on SQLite and PostgreSQL: the requests whose model
 * routes first to an anthropic channel with `batchApi` go up as one upstream
 * batch per (channel, model), inline, their results mapped back by
 * custom_id, each logged at half price; requests of a simulator model, or
 * of an anthropic channel without the setting, run on the gateway; an upstream batch that expired, and a
 * refused create, leave their requests to the gateway; a cancel cancels the
 * upstream batch; a create whose answer was lost is adopted, not made
 * twice, unless another batch could be it too, and a batch adopted by
 * mistake answers none of our requests. Each upstream batch is
 * deleted once collected.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { ANTHROPIC_BATCH_FAKE_KEY, type AnthropicBatchFake, startAnthropicBatchFake } from './anthropic-batch-fake.js';
import { ended } from './batch-support.js';

const KEY = 'sk-msgbatch-upstream-0001';

const request = (customId: string, model: string, text: string) => ({ custom_id: customId, params: { model, max_tokens: 64, messages: [{ role: 'user' as const, content: text }] } });

type Results = Map<string, Anthropic.Messages.Batches.MessageBatchResult>;

async function results(client: Anthropic, id: string): Promise<Results> {
  const byId: Results = new Map();
  for await (const entry of await client.messages.batches.results(id)) byId.set(entry.custom_id, entry.result);
  return byId;
}

const text = (result: Anthropic.Messages.Batches.MessageBatchResult | undefined) =>
  result?.type === 'succeeded' && result.message.content[0]?.type === 'text' ? result.message.content[0].text : undefined;

/** Waits, within a bound, until `done` holds. */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(ENGINES)('message batches through the upstream Message Batches API on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let client: Anthropic;
  let fake: AnthropicBatchFake;

  beforeAll(async () => {
    fake = await startAnthropicBatchFake();
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'anthropic', type: 'anthropic', baseUrl: fake.origin, apiKey: ANTHROPIC_BATCH_FAKE_KEY, models: ['claude-b-*'], settings: { batchApi: true } },
          // The same server, but the setting off: its requests run on the gateway, interactively.
          { name: 'anthropic-plain', type: 'anthropic', baseUrl: fake.origin, apiKey: ANTHROPIC_BATCH_FAKE_KEY, models: ['claude-n-*'] },
          { name: 'sim', type: 'simulator', models: ['sim-*'], settings: { latencyMs: 5 } },
        ],
        keys: [{ name: 'owner', key: KEY }],
        prices: { 'claude-b-*': { input: 1, output: 2 }, 'sim-*': { input: 1, output: 2 } },
      },
      env: { SWITCHYARD_BATCH_UPSTREAM_POLL_MS: '40' },
    });
    client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await fake?.close();
  });
  beforeEach(() => {
    fake.expire = false;
    fake.createStatus = undefined;
    fake.loseNextCreate = false;
    fake.twinOfLost = false;
    fake.foreignOnFailedCreate = false;
    fake.pollsToFinish = 2;
  });

  const calls = (from: number) => fake.upstream.requests.slice(from).map((call) => `${call.method} ${call.url.split('?')[0].replace(/msgbatch_[0-9a-f]+/, '{id}')}`);

  it('sends the requests of batch-API channels upstream, one batch per model, and runs the others locally', async () => {
    const before = fake.deleted.length;
    const from = fake.upstream.requests.length;
    const requests = [
      ...Array.from({ length: 5 }, (_, i) => request(`one-${i}`, 'claude-b-one', `q ${i}`)),
      ...Array.from({ length: 3 }, (_, i) => request(`two-${i}`, 'claude-b-two', `q ${i}`)),
      request('refused', 'claude-b-one', 'please FAIL'),
      ...Array.from({ length: 3 }, (_, i) => request(`local-${i}`, 'sim-local', `q ${i}`)),
    ];
    const batch = await ended(client, (await client.messages.batches.create({ requests })).id);
    expect(batch.request_counts).toEqual({ processing: 0, succeeded: 11, errored: 1, canceled: 0, expired: 0 });

    // Two creates, the requests inline, each with the upstream model and as custom_id the group's id and our line's index.
    const creates = fake.upstream.requests.slice(from).filter((call) => call.method === 'POST' && call.url === '/v1/messages/batches');
    const sent = creates.map((call) => call.json<{ requests: { custom_id: string; params: { model: string } }[] }>().requests);
    expect(sent.flat().every((entry) => /^bdel_\w+-\d+$/.test(entry.custom_id))).toBe(true);
    expect(sent.map((list) => [list[0].params.model, list.map((entry) => entry.custom_id.split('-')[1])]).sort()).toEqual([
      ['claude-b-one', ['0', '1', '2', '3', '4', '8']],
      ['claude-b-two', ['5', '6', '7']],
    ]);
    expect(creates.every((call) => call.headers['anthropic-version'] === '2023-06-01' && call.headers['x-api-key'] === ANTHROPIC_BATCH_FAKE_KEY)).toBe(true);

    const byId = await results(client, batch.id);
    for (const entry of requests.slice(0, 8)) expect(text(byId.get(entry.custom_id))).toMatch(/^batch answer to bdel_\w+-\d+$/);
    // custom_id upstream ends with our line's index: the answer names the line it belongs to.
    expect(text(byId.get('two-0'))).toMatch(/-5$/);
    for (const id of ['local-0', 'local-1', 'local-2']) expect(text(byId.get(id))).not.toMatch(/^batch answer/);
    expect(byId.get('refused')).toEqual({ type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'this request fails' }, request_id: null } });

    let rows: { model: string; cost: number; httpStatus: number; family: string }[] = [];
    for (const end = Date.now() + 10_000; rows.length < 9 && Date.now() < end; ) {
      rows = ((await gw.admin('GET', '/logs?limit=500')).body.data as typeof rows).filter((row) => row.model.startsWith('claude-b-'));
      if (rows.length < 9) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answered = rows.filter((row) => row.httpStatus === 200);
    expect(answered).toHaveLength(8);
    // 10 input tokens at $1/M and 5 output at $2/M, at half price.
    for (const row of answered) expect(row.cost).toBeCloseTo(((10 * 1 + 5 * 2) / 1e6) * 0.5, 12);
    expect(rows.every((row) => row.family === 'messages')).toBe(true);
    expect(rows.find((row) => row.httpStatus === 400)?.cost).toBe(0);

    // Each upstream batch is deleted once collected.
    await until(() => fake.deleted.length >= before + 2);
    expect(fake.deleted.slice(before)).toHaveLength(2);
    expect(calls(from).filter((call) => call === 'DELETE /v1/messages/batches/{id}')).toHaveLength(2);
  }, 60_000);

  it('runs the requests of an anthropic channel without the setting on the gateway', async () => {
    const from = fake.upstream.requests.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('n-0', 'claude-n-one', 'a')] })).id);
    expect(calls(from)).toEqual(['POST /v1/messages']);
    expect(text((await results(client, batch.id)).get('n-0'))).toBe('interactive answer');
  }, 60_000);

  it('runs the requests of an upstream batch that expired on the gateway', async () => {
    fake.expire = true;
    const before = fake.deleted.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('late-0', 'claude-b-one', 'a'), request('late-1', 'claude-b-one', 'b')] })).id);
    expect(batch.request_counts).toEqual({ processing: 0, succeeded: 2, errored: 0, canceled: 0, expired: 0 });
    const byId = await results(client, batch.id);
    expect([text(byId.get('late-0')), text(byId.get('late-1'))]).toEqual(['interactive answer', 'interactive answer']);
    await until(() => fake.deleted.length > before);
    expect(fake.deleted.length).toBe(before + 1);
  }, 60_000);

  it('hands the requests back when the upstream refuses the create', async () => {
    fake.createStatus = 400;
    const from = fake.upstream.requests.length;
    const made = fake.batches.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('back-0', 'claude-b-two', 'a')] })).id);
    expect(fake.batches.length).toBe(made);
    // Tried once upstream, then run on the gateway.
    expect(calls(from).filter((call) => call === 'POST /v1/messages/batches')).toHaveLength(1);
    expect(calls(from).filter((call) => call === 'POST /v1/messages')).toHaveLength(1);
    expect(text((await results(client, batch.id)).get('back-0'))).toBe('interactive answer');
  }, 60_000);

  it('cancels the upstream batch when the batch is cancelled', async () => {
    fake.pollsToFinish = 1_000;
    const before = fake.batches.length;
    const from = fake.upstream.requests.length;
    const created = await client.messages.batches.create({ requests: [request('c-0', 'claude-b-one', 'a'), request('c-1', 'claude-b-one', 'b')] });
    await until(() => fake.batches.length > before);
    const upstream = fake.batches[before];
    await client.messages.batches.cancel(created.id);
    const batch = await ended(client, created.id);
    expect(batch.request_counts).toEqual({ processing: 0, succeeded: 0, errored: 0, canceled: 2, expired: 0 });
    expect(upstream.cancel_initiated_at).not.toBeNull();
    expect(upstream.outcome).toBe('canceled');
    expect(calls(from).filter((call) => call === 'POST /v1/messages/batches/{id}/cancel')).toHaveLength(1);
    const byId = await results(client, batch.id);
    expect([byId.get('c-0')?.type, byId.get('c-1')?.type]).toEqual(['canceled', 'canceled']);
  }, 60_000);

  it('adopts the batch a create whose answer was lost made, instead of making a second', async () => {
    fake.loseNextCreate = true;
    const from = fake.upstream.requests.length;
    const before = fake.batches.length + fake.deleted.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('lost-0', 'claude-b-one', 'a'), request('lost-1', 'claude-b-one', 'b')] })).id);
    expect(calls(from).filter((call) => call === 'POST /v1/messages/batches')).toHaveLength(1);
    expect(calls(from).filter((call) => call === 'GET /v1/messages/batches')).toHaveLength(1);
    expect(fake.batches.length + fake.deleted.length).toBe(before + 1);
    const byId = await results(client, batch.id);
    expect([text(byId.get('lost-0')), text(byId.get('lost-1'))]).toEqual([expect.stringMatching(/-0$/), expect.stringMatching(/-1$/)]);
  }, 60_000);

  it('adopts a batch that is not ours only as far as its custom ids: none answers our lines, which run on the gateway', async () => {
    fake.foreignOnFailedCreate = true;
    const from = fake.upstream.requests.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('alien-0', 'claude-b-one', 'a')] })).id);
    expect(calls(from).filter((call) => call === 'POST /v1/messages/batches')).toHaveLength(1);
    expect(text((await results(client, batch.id)).get('alien-0'))).toBe('interactive answer');
    // Not ours, so not deleted: its results were read once more to see whose it is.
    await until(() => calls(from).filter((call) => call === 'GET /v1/messages/batches/{id}/results').length >= 2);
    expect(calls(from).filter((call) => call.startsWith('DELETE '))).toEqual([]);
    expect(fake.batches.some((entry) => entry.foreign && entry.requests[0].custom_id === 'other-0')).toBe(true);
  }, 60_000);

  it('creates anew when another batch could be the lost one too', async () => {
    fake.loseNextCreate = true;
    fake.twinOfLost = true;
    const from = fake.upstream.requests.length;
    const batch = await ended(client, (await client.messages.batches.create({ requests: [request('twin-0', 'claude-b-two', 'a')] })).id);
    expect(calls(from).filter((call) => call === 'POST /v1/messages/batches')).toHaveLength(2);
    expect(text((await results(client, batch.id)).get('twin-0'))).toMatch(/^batch answer to bdel_\w+-0$/);
  }, 60_000);
});
