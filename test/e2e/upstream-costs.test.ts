/**
 * Channel cost tables end to end, on SQLite and PostgreSQL: written through
 * the config file, the admin API and the CLI (a bad one refused with a 400, or a
 * failed start, naming the field), each request's upstream cost recorded by
 * the serving channel's table (upstream model name first), and the usage
 * report's spend, upstream cost and margin per channel and in total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { igClient } from '../families/images/support.js';
import { runCli } from '../../src/cli/run.js';
import { postgresUrl } from '../storage/engines.js';

const KEY = 'sk-upstream-costs-0001';
const USAGE = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
/** What the client pays for one request of every model here: 1000 × 3 + 500 × 6 per million. */
const CHARGE = (1000 * 3 + 500 * 6) / 1e6;

const completion = (model: string) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: USAGE });

describe.each(ENGINES)('channel cost tables on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;

  const ask = async (model: string) => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('x-request-id')!;
  };
  const rowOf = async (requestId: string) => {
    const rows = (await gw.admin('GET', '/logs?limit=1000')).body.data as Array<{ requestId: string; upstreamCost: number | null; cost: number }>;
    return rows.filter((row) => row.requestId === requestId);
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: completion(request.json<{ model: string }>().model) }));
    place = await createPlace(engine);
    const base = { type: 'openai-chat', baseUrl: `${upstream.origin}/v1` };
    gw = await place.start({
      config: {
        keys: [{ name: 'client', key: KEY }],
        prices: { 'cm-*': { input: 3, output: 6 }, 'free-*': { input: 3, output: 6 }, 'part-*': { input: 3, output: 6 }, 'ig_*': { perCall: 0.1 } },
        channels: [
          // Priced by the upstream name the mapping sends, not the client's.
          { ...base, name: 'costed', models: ['cm-*'], modelMapping: { 'cm-a': 'up-a' }, settings: { costs: { 'up-*': { input: 1, output: 2 }, 'cm-*': { input: 50 } } } },
          { ...base, name: 'uncosted', models: ['free-*'] },
          { ...base, name: 'partial', models: ['part-*'], settings: { costs: { 'part-known': { input: 1, output: 2 } } } },
          { name: 'images', type: 'simulator', models: ['ig_*'], settings: { taskSeconds: 0.2, accounts: [{ instanceId: 'acc-1', channelId: 'room-1' }], costs: { 'ig_*': { perCall: 0.04 } } } },
        ],
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('records each request upstream cost by the serving channel table, null without a price there', async () => {
    const [costed] = await rowOf(await ask('cm-a'));
    expect(costed.cost).toBeCloseTo(CHARGE, 12);
    expect(costed.upstreamCost).toBeCloseTo((1000 * 1 + 500 * 2) / 1e6, 12);
    const [free] = await rowOf(await ask('free-x'));
    expect(free.upstreamCost).toBeNull();
    const [unknown] = await rowOf(await ask('part-other'));
    expect(unknown.upstreamCost).toBeNull();
    const id = await ask('part-known');
    expect((await rowOf(id))[0].upstreamCost).toBeCloseTo(0.002, 12);
    const detail = await gw.admin('GET', `/logs/${(await gw.admin('GET', '/logs?limit=1&model=part-known')).body.data[0].id}`);
    expect(detail.body.upstreamCost).toBeCloseTo(0.002, 12);
  });

  it('shows spend, upstream cost and margin per channel and in total, saying how many requests had no cost', async () => {
    await ask('cm-b');
    const report = (await gw.admin('GET', '/usage')).body;
    const byName = Object.fromEntries(report.channels.map((row: { channelName: string }) => [row.channelName, row]));
    expect(byName.costed).toMatchObject({ requests: 2, costedRequests: 2, uncostedRequests: 0 });
    expect(byName.costed.cost).toBeCloseTo(2 * CHARGE, 12);
    // cm-b has no upstream name of its own in the table, so its client name prices it: 1000 × 50 per million.
    expect(byName.costed.upstreamCost).toBeCloseTo(0.052, 12);
    expect(byName.costed.margin).toBeCloseTo(2 * CHARGE - 0.052, 12);
    expect(byName.uncosted).toMatchObject({ requests: 1, costedRequests: 0, upstreamCost: 0, margin: null, uncostedRequests: 1 });
    expect(byName.partial).toMatchObject({ requests: 2, costedRequests: 1, uncostedRequests: 1 });
    expect(byName.partial.margin).toBeCloseTo(CHARGE - 0.002, 12);
    expect(report.totals).toMatchObject({ requests: 5, costedRequests: 3, uncostedRequests: 2 });
    expect(report.totals.cost).toBeCloseTo(5 * CHARGE, 12);
    expect(report.totals.upstreamCost).toBeCloseTo(0.054, 12);
    expect(report.totals.margin).toBeCloseTo(3 * CHARGE - 0.054, 12);
    // Partial hours are read from the log itself: the same figures.
    const now = Date.now();
    const fromLog = (await gw.admin('GET', `/usage?since=${now - 60_000 * 5}&until=${now + 60_000}`)).body;
    expect(fromLog.channels.map((row: { channelName: string; costedRequests: number }) => [row.channelName, row.costedRequests]).sort()).toEqual(
      report.channels.map((row: { channelName: string; costedRequests: number }) => [row.channelName, row.costedRequests]).sort(),
    );
    expect(fromLog.totals.upstreamCost).toBeCloseTo(report.totals.upstreamCost, 12);
    expect(fromLog.totals.margin).toBeCloseTo(report.totals.margin, 12);
    const perKey = report.data.find((row: { model: string }) => row.model === 'cm-a');
    expect(perKey).toMatchObject({ requests: 1, costedRequests: 1 });
    const series = (await gw.admin('GET', `/usage/series?by=channel&since=${Date.now() - 3_600_000}&until=${Date.now() + 60_000}&step=60000`)).body;
    expect(series.totals.upstreamCost).toBeCloseTo(0.054, 12);
    expect(series.totals.costedRequests).toBe(3);
  });

  it('the admin API refuses a bad cost table with a 400 naming the field, and a good one applies at once', async () => {
    const channels = (await gw.admin('GET', '/channels')).body.data as Array<{ id: string; name: string }>;
    const uncosted = channels.find((channel) => channel.name === 'uncosted')!;
    const refused = await gw.admin('PATCH', `/channels/${uncosted.id}`, { settings: { costs: { 'free-*': { input: -2 } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'settings.costs', message: expect.stringMatching(/^settings\.costs: free-\*\.input: /) });
    const created = await gw.admin('POST', '/channels', { name: 'bad', ...{ type: 'anthropic', baseUrl: upstream.origin, apiKey: 'sk-up' }, models: ['x'], settings: { costs: 'cheap' } });
    expect(created.status).toBe(400);
    expect(created.body.error.param).toBe('settings.costs');
    const accepted = await gw.admin('PATCH', `/channels/${uncosted.id}`, { settings: { costs: { 'free-*': { input: 2, output: 4 } } } });
    expect(accepted.status).toBe(200);
    const [row] = await rowOf(await ask('free-y'));
    expect(row.upstreamCost).toBeCloseTo((1000 * 2 + 500 * 4) / 1e6, 12);
  });

  it('records a task submission upstream cost by the family pricing rule at the channel price', async () => {
    const submitted = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a ledger' });
    expect(submitted.status).toBe(200);
    const rows = (await gw.admin('GET', '/logs?model=ig_imagine')).body.data;
    expect(rows).toHaveLength(1);
    expect(rows[0].cost).toBeCloseTo(0.1, 12);
    expect(rows[0].upstreamCost).toBeCloseTo(0.04, 12);
  });

  it('the CLI refuses a bad cost table with the same message', async () => {
    const env = { SWITCHYARD_DATA_DIR: place.dataDir, ...(place.schema ? { SWITCHYARD_DATABASE_URL: postgresUrl, SWITCHYARD_DATABASE_SCHEMA: place.schema } : {}) };
    const cli = (args: string[]) => runCli(args, { env, stdout: () => undefined, stderr: () => undefined });
    await expect(cli(['channels', 'add', '--name', 'z', '--type', 'simulator', '--models', 'z-*', '--settings', '{"costs":{"z-*":{"perCall":-1}}}'])).rejects.toThrow(
      /^settings\.costs: z-\*\.perCall: /,
    );
    expect((await gw.admin('GET', '/channels')).body.data.map((channel: { name: string }) => channel.name)).not.toContain('z');
  });

  it('a config file with a bad cost table fails at start, naming the channel and the field', async () => {
    const other = await createPlace(engine);
    try {
      await expect(other.start({ config: { channels: [{ name: 'z', type: 'simulator', models: ['*'], settings: { costs: { 'm-*': { output: 'free' } } } }] } })).rejects.toThrow(
        /channels\[0\]\.settings\.costs \(channel "z"\): m-\*\.output: /,
      );
    } finally {
      await other.destroy();
    }
  });
});
