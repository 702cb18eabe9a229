/**
 * The admin API the console is built on, on SQLite and PostgreSQL: request
 * logs filtered and paged with a cursor, one request's detail (each attempt,
 * why it failed, the timings), usage series from the per-minute and per-hour sums, the
 * channel test, tasks with their media and history, prices and settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-console-api-0001';
const config = {
  channels: [
    { name: 'broken', type: 'simulator', models: ['flaky-model'], priority: 10, settings: { failStatus: 503 } },
    { name: 'steady', type: 'simulator', models: ['flaky-model', 'other-model', 'ig_*'], settings: { taskSeconds: 0.2, imageSize: 64 } },
  ],
  keys: [{ name: 'console', key: KEY }],
  prices: { 'flaky-model': { input: 1, output: 2 } },
};

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(ENGINES)('the console’s admin API on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  const channelId: Record<string, string> = {};

  const ask = (model: string, stream = false) =>
    fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, stream, messages: [{ role: 'user', content: 'hello there' }] }),
    }).then(async (response) => {
      await response.text();
      return response.status;
    });

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config, env: { SWITCHYARD_TASK_TICK_MS: '50', SWITCHYARD_SIMULATOR: 'off' } });
    for (const channel of (await gw.admin('GET', '/channels')).body.data) channelId[channel.name] = channel.id;
    expect(await ask('flaky-model')).toBe(200);
    expect(await ask('flaky-model', true)).toBe(200);
    expect(await ask('other-model')).toBe(200);
    expect(await ask('no-such-model')).toBe(404);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('filters the log by model, channel, family and status', async () => {
    const flaky = await gw.admin('GET', '/logs?model=flaky-model');
    expect(flaky.status).toBe(200);
    expect(flaky.body.data).toHaveLength(2);
    expect(flaky.body.hasMore).toBe(false);
    expect(flaky.body.nextCursor).toBeNull();
    expect((await gw.admin('GET', `/logs?channelId=${channelId.steady}`)).body.data).toHaveLength(3);
    expect((await gw.admin('GET', '/logs?family=messages&status=2xx')).body.data).toHaveLength(3);
    const errors = (await gw.admin('GET', '/logs?status=error')).body.data;
    expect(errors.map((row: { model: string; httpStatus: number }) => [row.model, row.httpStatus])).toEqual([['no-such-model', 404]]);
    expect((await gw.admin('GET', '/logs?status=404')).body.data).toHaveLength(1);
    expect((await gw.admin('GET', '/logs?family=responses')).body.data).toHaveLength(0);
    const since = flaky.body.data[1].createdAt;
    expect((await gw.admin('GET', `/logs?since=${new Date(since).toISOString()}&model=flaky-model`)).body.data.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad filters with the admin error shape, naming the parameter', async () => {
    for (const [query, param] of [
      ['status=teapot', 'status'],
      ['since=yesterday', 'since'],
      ['limit=0', 'limit'],
      ['cursor=nonsense', 'cursor'],
    ]) {
      const answer = await gw.admin('GET', `/logs?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request', param });
    }
    const unknown = await gw.admin('GET', '/logs?colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('colour');
    expect((await gw.admin('GET', '/logs?model=a&model=b')).status).toBe(400);
  });

  it('pages with a cursor: every row once, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: { body: { data: Array<{ id: string; createdAt: number }>; nextCursor: string | null } } = await gw.admin('GET', `/logs?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...answer.body.data.map((row) => row.id));
      cursor = answer.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    const all = (await gw.admin('GET', '/logs')).body.data.map((row: { id: string }) => row.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(4);
  });

  it('shows one request’s attempts, why each failed, and its timings', async () => {
    const [row] = (await gw.admin('GET', '/logs?model=flaky-model&limit=1')).body.data;
    const detail = await gw.admin('GET', `/logs/${row.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ channelName: 'steady', keyName: 'console', triedChannels: ['broken', 'steady'], httpStatus: 200 });
    const [failed, served] = detail.body.attempts;
    expect(failed).toMatchObject({ channel: 'broken', channelId: channelId.broken, status: 503, errorKind: expect.any(String), message: expect.any(String) });
    expect(served).toMatchObject({ channel: 'steady', status: 200, errorKind: null });
    expect(served.at).toBeGreaterThanOrEqual(failed.at);
    expect(detail.body.timings.totalMs).toBe(row.latencyMs);
    expect(detail.body.timings.queueMs).toBeGreaterThanOrEqual(0);
    expect(detail.body.timings.upstreamMs).toBeGreaterThanOrEqual(0);
    expect(detail.body.translationPlan).toEqual({ mapped: [], ignored: [] });
    expect((await gw.admin('GET', '/logs/log_nothing')).status).toBe(404);
  });

  it('charts usage over time from the per-minute and per-hour sums', async () => {
    const all = await gw.admin('GET', '/usage/series');
    expect(all.status).toBe(200);
    expect(all.body.by).toBe('none');
    expect(all.body.step).toBe(15 * 60_000);
    expect(all.body.totals).toMatchObject({ requests: 4, errors: 1, failovers: 2 });
    expect(all.body.totals.p50Ms).not.toBeNull();
    expect(all.body.totals.p95Ms).toBeGreaterThanOrEqual(all.body.totals.p50Ms);
    expect(all.body.totals.ttftP50Ms).not.toBeNull();
    expect(all.body.series).toHaveLength(1);

    const byModel = await gw.admin('GET', `/usage/series?by=model&step=60000&since=${Date.now() - 3_600_000}`);
    const flaky = byModel.body.series.find((series: { group: string }) => series.group === 'flaky-model');
    const points = flaky.points.reduce((sum: number, point: { requests: number }) => sum + point.requests, 0);
    expect(points).toBe(2);
    expect(flaky.points.reduce((sum: number, point: { cost: number }) => sum + point.cost, 0)).toBeGreaterThan(0);

    const byChannel = await gw.admin('GET', '/usage/series?by=channel');
    expect(byChannel.body.series.map((series: { label: string }) => series.label).sort()).toEqual(['none', 'steady']);
    const byKey = await gw.admin('GET', `/usage/series?by=key&channelId=${channelId.steady}`);
    expect(byKey.body.series.map((series: { label: string }) => series.label)).toEqual(['console']);
    expect(byKey.body.totals.requests).toBe(3);
    // Each series carries its own totals, quantiles from its merged histograms.
    const steady = byChannel.body.series.find((series: { label: string }) => series.label === 'steady');
    expect(steady.totals).toMatchObject({ requests: 3, errors: 0, failovers: 2 });
    expect(steady.totals.p50Ms).not.toBeNull();

    // A step of whole hours reads the hourly sums: the same totals.
    const hourly = await gw.admin('GET', `/usage/series?step=3600000&since=${Date.now() - 2 * 3_600_000}`);
    expect(hourly.body.totals).toEqual(all.body.totals);

    expect((await gw.admin('GET', '/usage/series?step=1000')).status).toBe(400);
    expect((await gw.admin('GET', '/usage/series?since=0&step=60000')).status).toBe(400);
    expect((await gw.admin('GET', '/usage/series?by=colour')).status).toBe(400);
  });

  it('tests one channel with one request, outside routing', async () => {
    const steady = await gw.admin('POST', `/channels/${channelId.steady}/test`, {});
    expect(steady.status).toBe(200);
    expect(steady.body).toMatchObject({ ok: true, status: 200, model: 'flaky-model', error: null });
    expect(steady.body.sample).toEqual(expect.any(String));
    const broken = await gw.admin('POST', `/channels/${channelId.broken}/test`, { model: 'flaky-model' });
    expect(broken.body).toMatchObject({ ok: false, status: 503, sample: null, error: { type: expect.any(String) } });
    // Not client traffic: the log did not grow.
    expect((await gw.admin('GET', '/logs')).body.data).toHaveLength(4);
    expect((await gw.admin('POST', `/channels/${channelId.steady}/test`, { colour: 'red' })).status).toBe(400);
  });

  it('lists tasks with their media, history and deliveries', async () => {
    const submitted = await fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
    }).then((response) => response.json() as Promise<{ result: string }>);
    const done = await until(async () => {
      const answer = await gw.admin('GET', `/tasks/${submitted.result}`);
      return answer.body.status === 'SUCCESS' && answer.body;
    });
    expect(done).toMatchObject({ family: 'images', action: 'IMAGINE', prompt: 'a lighthouse at dusk', channelId: channelId.steady });
    expect(done.history.map((event: { event: string }) => event.event)).toEqual(['submitted', 'started', 'finished']);
    expect(done.buttons.length).toBeGreaterThan(0);
    expect(done.clientView).toMatchObject({ id: submitted.result, status: 'SUCCESS' });
    const image = await fetch(`${gw.url}${done.media[0].url}`, { headers: { authorization: `Bearer ${gw.adminKey}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${gw.url}${done.media[0].url}`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);

    const listed = await gw.admin('GET', '/tasks?family=images&status=SUCCESS');
    expect(listed.body.data.map((task: { id: string }) => task.id)).toContain(submitted.result);
    expect((await gw.admin('GET', '/tasks?family=videos')).body.data).toEqual([]);
    expect((await gw.admin('GET', '/tasks?family=music')).status).toBe(400);
    expect((await gw.admin('GET', '/tasks/12345')).status).toBe(404);
  });

  it('shows prices, settings (no credential) and channel types', async () => {
    const prices = await gw.admin('GET', '/prices');
    expect(prices.body.data).toEqual([{ model: 'flaky-model', price: { input: 1, output: 2 }, source: 'config', configOwned: true, updatedAt: expect.any(Number) }]);
    const settings = await gw.admin('GET', '/settings');
    expect(settings.body.configOwned.channels.broken).toEqual(expect.arrayContaining(['priority', 'settings']));
    expect(JSON.stringify(settings.body)).not.toContain(gw.adminKey);
    expect(settings.body.data.find((row: { name: string }) => row.name === 'SWITCHYARD_TASK_TICK_MS')).toMatchObject({ value: '50', source: 'environment' });
    const types = await gw.admin('GET', '/channel-types');
    expect(types.body.data.find((entry: { type: string }) => entry.type === 'simulator').serves).toEqual(['chat', 'images', 'videos']);
    expect(types.body.data.find((entry: { type: string }) => entry.type === 'wan').serves).toEqual(['videos']);
    // Each type says what a channel must declare and which settings it takes, as JSON Schema the console builds its form from.
    const anthropic = types.body.data.find((entry: { type: string }) => entry.type === 'anthropic');
    expect(anthropic.needs).toEqual({ baseUrl: true, credentials: true });
    expect(anthropic.settings).toMatchObject({ type: 'object', additionalProperties: false });
    expect(anthropic.settings.properties.defaultMaxTokens).toMatchObject({ type: 'integer', default: 4096, description: expect.stringContaining('max_tokens') });
    expect(types.body.data.find((entry: { type: string }) => entry.type === 'simulator')).toMatchObject({ needs: { baseUrl: false, credentials: false }, defaultModels: ['*'] });
    // A cloud type says what its key is, for the form to tell the operator.
    const byType = (type: string) => types.body.data.find((entry: { type: string }) => entry.type === type);
    expect(byType('bedrock').needs.credentialsHint).toMatch(/ACCESS_KEY_ID:SECRET_ACCESS_KEY\[:SESSION_TOKEN\].*Bedrock API key/);
    expect(byType('vertex').needs.credentialsHint).toMatch(/service-account JSON/);
    expect(byType('azure-openai').needs.credentialsHint).toMatch(/api-key.*client secret/);
    // A preset's defaults are published, so the form shows what the channel will really get.
    expect(byType('openai-chat').impliedDefaults.key).toBe('preset');
    expect(byType('openai-chat').impliedDefaults.byValue.deepseek).toMatchObject({ reasoningContent: true, maxTokensField: 'max_tokens', promptCacheKey: false });
    expect(byType('anthropic').impliedDefaults).toBeUndefined();
  });
});
