/**
 * Usage sums: the latency quantiles read off bucket counts, the sums written
 * with each batch of log rows (minutes and hours agree with the rows), and
 * the migration's one-time roll-up of rows written before the sums existed.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS, bucketOf, quantileOf } from '../../src/storage/latency-buckets.js';
import { storeMigrator } from '../../src/storage/migrations/index.js';
import { newId } from '../../src/storage/ids.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import { createTestDatabase, engines, type TestDatabase } from './engines.js';

describe('latency quantiles from bucket counts', () => {
  it('interpolates inside the bucket and answers null when empty', () => {
    const counts = new Array(LATENCY_BUCKETS).fill(0);
    expect(quantileOf(counts, 0.5)).toBeNull();
    counts[bucketOf(75)] = 10; // ten requests in (50, 100]
    expect(quantileOf(counts, 0.5)).toBe(75);
    expect(quantileOf(counts, 1)).toBe(100);
    counts[bucketOf(1_000_000)] = 90; // the unbounded bucket answers its lower edge
    expect(quantileOf(counts, 0.95)).toBe(80_000);
  });
});

const HOUR = 3_600_000;
const base = Math.floor(Date.UTC(2026, 0, 5, 10) / HOUR) * HOUR;

function row(minute: number, fields: Partial<RequestLogRow> = {}): RequestLogRow {
  return {
    id: newId('log'),
    requestId: newId('req'),
    keyId: 'key_a',
    family: 'messages',
    model: 'm-1',
    upstreamModel: null,
    channelId: 'ch_1',
    triedChannels: ['one'],
    httpStatus: 200,
    errorKind: null,
    errorMessage: null,
    stream: true,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cost: 0.5,
    upstreamCost: null,
    latencyMs: 120,
    firstByteMs: 30,
    clientIp: null,
    translation: null,
    attempts: [],
    createdAt: base + minute * 60_000 + 1_000,
    ...fields,
  };
}

describe.each(engines)('usage sums on $engine', ({ engine, skip }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (!skip) database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const rows = [
    row(0),
    row(0, { httpStatus: 429, errorKind: 'rate_limited', triedChannels: ['one', 'two'], cost: 0 }),
    row(1, { model: 'm-2', latencyMs: 4_000, firstByteMs: null }),
    row(59),
    row(61),
    row(1, { requestId: 'refund:123', cost: -0.25 }),
  ];

  it.skipIf(skip)('adds each batch to the minute and hour sums', async () => {
    const store = await database.open();
    await store.logs.insertMany(rows.slice(0, 3));
    await store.logs.insertMany(rows.slice(3));
    const query = { since: base, until: base + 2 * HOUR, by: 'none' as const, top: 10 };
    const minutes = await store.logs.series({ ...query, step: 60_000 });
    const hours = await store.logs.series({ ...query, step: HOUR });
    // A refund row moves money, not the request count.
    expect(minutes.totals).toMatchObject({ requests: 5, errors: 1, rateLimited: 1, failovers: 1, inputTokens: 60, outputTokens: 30, cost: 1.75 });
    expect(hours.totals).toEqual(minutes.totals);
    expect(minutes.series[0]!.points.map((point) => [point.t - base, point.requests])).toEqual([
      [0, 2],
      [60_000, 1],
      [59 * 60_000, 1],
      [61 * 60_000, 1],
    ]);
    expect(hours.series[0]!.points.map((point) => [point.t - base, point.requests])).toEqual([
      [0, 4],
      [HOUR, 1],
    ]);
    const byModel = await store.logs.series({ ...query, step: HOUR, by: 'model', model: 'm-2' });
    expect(byModel.series.map((series) => series.group)).toEqual(['m-2']);
    expect(byModel.totals.p50Ms).toBeGreaterThan(2_500);
    expect(byModel.totals.ttftP50Ms).toBeNull();
    // Beyond the busiest groups, one series sums the rest; the totals stay whole.
    const topOne = await store.logs.series({ ...query, step: HOUR, by: 'model', top: 1 });
    expect(topOne.series.map((series) => [series.group, series.points.reduce((sum, point) => sum + point.requests, 0)])).toEqual([
      ['m-1', 4],
      ['(other)', 1],
    ]);
    expect(topOne.totals).toEqual(minutes.totals);

    // Totals per key and model: whole hours from the sums, partial hours from the log, exact either way.
    const totals = (rows: Awaited<ReturnType<typeof store.logs.usage>>) => rows.map((row) => [row.model, row.requests, Math.round(row.cost * 100) / 100]);
    expect(totals(await store.logs.usage({ since: base + 60_000, until: base + 61 * 60_000 + 500 }))).toEqual([
      ['m-1', 1, 0.25],
      ['m-2', 1, 0.5],
    ]);
    expect(totals(await store.logs.usage({ since: base + 60_000, until: base + 3 * HOUR }))).toEqual([
      ['m-1', 2, 0.75],
      ['m-2', 1, 0.5],
    ]);
    expect(totals(await store.logs.usage({}))).toEqual([
      ['m-1', 4, 1.25],
      ['m-2', 1, 0.5],
    ]);
    expect(await store.logs.usage({ keyId: 'key_b' })).toEqual([]);
    await store.close();
  });

  it.skipIf(skip)('keeps the upstream cost, and what clients paid, of the requests whose cost is known, per channel', async () => {
    const costs = await createTestDatabase(engine);
    const store = await costs.open();
    try {
      await store.logs.insertMany([
        row(0, { channelId: 'ch_1', cost: 0.5, upstreamCost: 0.2 }),
        row(2, { channelId: 'ch_1', cost: 0.5, upstreamCost: null }),
        row(61, { channelId: 'ch_2', cost: 0.3, upstreamCost: 0.4 }),
        row(62, { channelId: null, cost: 0, upstreamCost: null, httpStatus: 502 }),
      ]);
      const series = await store.logs.series({ since: base, until: base + 2 * HOUR, step: HOUR, by: 'none', top: 10 });
      expect(series.totals).toMatchObject({ requests: 4, costedRequests: 2 });
      expect(series.totals.upstreamCost).toBeCloseTo(0.6, 12);
      expect(series.totals.costedSpend).toBeCloseTo(0.8, 12);
      // Whole hours from the sums and a partial one from the log give the same report.
      for (const query of [{}, { since: base, until: base + 90 * 60_000 }]) {
        const report = await store.logs.usageReport(query);
        const byChannel = Object.fromEntries(report.byChannel.map((entry) => [entry.channelId ?? 'none', [entry.requests, entry.costedRequests, entry.upstreamCost, entry.costedSpend]]));
        expect(byChannel).toEqual({ ch_1: [2, 1, 0.2, 0.5], ch_2: [1, 1, 0.4, 0.3], none: [1, 0, 0, 0] });
        expect(report.byKey.map((entry) => [entry.model, entry.requests, entry.costedRequests])).toEqual([['m-1', 4, 2]]);
      }
    } finally {
      await store.close();
      await costs.destroy();
    }
  });

  it.skipIf(skip)('counts unpriced requests and one-hour cache writes in the sums and the totals', async () => {
    const store = await database.open();
    const day = 24 * HOUR;
    await store.logs.insertMany([
      row(0, { createdAt: base + day + 1_000, model: 'priced', cacheWriteTokens: 30, cacheWrite1hTokens: 20 }),
      row(0, { createdAt: base + day + 2_000, model: 'free-model', cost: 0, unpriced: true }),
      row(0, { createdAt: base + day + 3_000, model: 'free-model', cost: 0, unpriced: true }),
    ]);
    const query = { since: base + day, until: base + day + HOUR, by: 'model' as const, top: 10 };
    for (const step of [60_000, HOUR]) {
      const series = await store.logs.series({ ...query, step });
      expect(series.totals.unpricedRequests).toBe(2);
      expect(Object.fromEntries(series.series.map((group) => [group.group, group.totals.unpricedRequests]))).toEqual({ priced: 0, 'free-model': 2 });
    }
    // Whole hours come from the hourly sums.
    const usage = await store.logs.usage({ since: base + day, until: base + day + HOUR });
    expect(usage.map((entry) => [entry.model, entry.requests, entry.unpricedRequests, entry.cacheWrite1hTokens])).toEqual([
      ['free-model', 2, 2, 0],
      ['priced', 1, 0, 20],
    ]);
    await store.close();
  });

  it.skipIf(skip)('the migration rolls up rows written before the sums existed', async () => {
    const store = await database.open();
    // The store's own schema on PostgreSQL: tests beside this one drop theirs while the migrator reads.
    const schema = store.engine === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(store.db)).rows[0].name : undefined;
    const migrator = storeMigrator(store.db, schema);
    const down = await migrator.migrateTo('0006_log_indexes');
    expect(down.error).toBeUndefined();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const rolled = await store.logs.series({ since: base, until: base + 2 * HOUR, by: 'none', top: 10, step: 60_000 });
    // The same sums as written live, but failovers: rows older than the attempts column count none.
    expect(rolled.totals).toMatchObject({ requests: 5, errors: 1, rateLimited: 1, failovers: 0, inputTokens: 60, cost: 1.75 });
    await store.close();
  });
});
