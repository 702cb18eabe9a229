import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/storage/ids.js';
import { migrations } from '../../src/storage/migrations/index.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import type { Store } from '../../src/storage/types.js';
import { createTestDatabase, engines, useTestStore, type TestDatabase } from './engines.js';

function logRow(overrides: Partial<RequestLogRow>): RequestLogRow {
  return {
    id: newId('log'),
    requestId: newId('req'),
    keyId: 'key_a',
    teamId: 'team_a',
    userId: null,
    family: 'messages',
    model: 'm-1',
    upstreamModel: 'upstream-m-1',
    channelId: 'ch_1',
    triedChannels: ['primary'],
    httpStatus: 200,
    errorKind: null,
    errorMessage: null,
    stream: false,
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: 1,
    cacheWriteTokens: 2,
    cacheWrite1hTokens: 1,
    reasoningTokens: 3,
    estimated: false,
    estimatedParts: [],
    cost: 0.001,
    upstreamCost: null,
    unpriced: false,
    latencyMs: 120,
    firstByteMs: null,
    clientIp: '127.0.0.1',
    translation: null,
    attempts: [],
    images: null,
    createdAt: 1_000,
    ...overrides,
  };
}

describe.each(engines)('request logs and settings on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('inserts a batch and reads every field back', async () => {
    const detailed = logRow({
      createdAt: 500,
      stream: true,
      estimated: true,
      estimatedParts: ['input', 'output'],
      keyId: null,
      channelId: null,
      upstreamModel: null,
      triedChannels: ['primary', 'backup'],
      httpStatus: 502,
      errorKind: 'upstream_error',
      errorMessage: 'both channels failed',
      firstByteMs: 42,
      clientIp: null,
      inputTokens: 2_000_000_000_123,
      unpriced: true,
      images: 4,
    });
    await store.logs.insertMany([detailed]);
    await store.logs.insertMany([]);
    const [read] = await store.logs.query({ before: 501, since: 500 });
    expect(read).toEqual(detailed);
  });

  it.skipIf(skip)('inserts more rows than one statement holds', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => logRow({ createdAt: 10_000 + i, keyId: i % 2 === 0 ? 'key_a' : 'key_b', model: i % 3 === 0 ? 'm-1' : 'm-2' }));
    await store.logs.insertMany(rows);
    const newest = await store.logs.query({ since: 10_000, limit: 5 });
    expect(newest.map((r) => r.createdAt)).toEqual([11_202, 11_201, 11_200, 11_199, 11_198]);
  });

  it.skipIf(skip)('filters and pages back newest first', async () => {
    const page1 = await store.logs.query({ keyId: 'key_b', since: 10_000, limit: 3 });
    expect(page1.map((r) => r.createdAt)).toEqual([11_201, 11_199, 11_197]);
    const page2 = await store.logs.query({ keyId: 'key_b', since: 10_000, limit: 3, before: page1[2].createdAt });
    expect(page2.map((r) => r.createdAt)).toEqual([11_195, 11_193, 11_191]);

    const byModel = await store.logs.query({ keyId: 'key_a', model: 'm-1', since: 10_000, limit: 2 });
    expect(byModel.every((r) => r.keyId === 'key_a' && r.model === 'm-1')).toBe(true);
    expect(byModel.map((r) => r.createdAt)).toEqual([11_200, 11_194]);

    expect(await store.logs.query({ since: 10_000 })).toHaveLength(100);
    expect(await store.logs.query({ since: 10_000, limit: 5000 })).toHaveLength(1000);
  });

  it.skipIf(skip)('filters by status, team and user with the indexes migration 0020 left', async () => {
    const statuses = [200, 201, 400, 404, 429, 500, 503];
    const rows = statuses.map((httpStatus, i) => logRow({ httpStatus, teamId: i % 2 === 0 ? 'team_s' : null, userId: i % 3 === 0 ? 'user_s' : null, createdAt: 50_000 + i }));
    await store.logs.insertMany(rows);
    const read = async (query: Parameters<Store['logs']['query']>[0]) => (await store.logs.query({ since: 50_000, until: 60_000, ...query })).map((row) => row.httpStatus).sort((a, b) => a - b);
    expect(await read({ status: { from: 429, to: 429 } })).toEqual([429]);
    expect(await read({ status: { from: 400, to: 499 } })).toEqual([400, 404, 429]);
    expect(await read({ status: { from: 500, to: 599 } })).toEqual([500, 503]);
    expect(await read({ status: { from: 400, to: 599 } })).toEqual([400, 404, 429, 500, 503]);
    expect(await read({ status: { from: 200, to: 299 } })).toEqual([200, 201]);
    expect(await read({ status: { from: 200, to: 200 } })).toEqual([200]);
    expect(await read({ teamId: 'team_s' })).toEqual([200, 400, 429, 503]);
    expect(await read({ teamIds: ['team_s', 'team_none'] })).toEqual([200, 400, 429, 503]);
    expect(await read({ userId: 'user_s' })).toEqual([200, 404, 503]);
  });

  it.skipIf(skip)('aggregates usage by key and model over a time range', async () => {
    await store.logs.insertMany([
      logRow({ keyId: 'key_u', model: 'alpha', createdAt: 100_000, inputTokens: 5, outputTokens: 7, cost: 0.5 }),
      logRow({ keyId: 'key_u', model: 'alpha', createdAt: 100_001, inputTokens: 6, outputTokens: 8, cost: 0.25 }),
      logRow({ keyId: 'key_u', model: 'beta', createdAt: 100_002, cacheReadTokens: 9, cacheWriteTokens: 4, cacheWrite1hTokens: 3, unpriced: true, cost: 0 }),
      logRow({ keyId: 'key_v', model: 'alpha', createdAt: 100_003 }),
      logRow({ keyId: null, model: 'alpha', createdAt: 100_004 }),
      logRow({ keyId: 'key_u', model: 'alpha', createdAt: 200_000 }),
    ]);

    const forKey = await store.logs.usage({ keyId: 'key_u', since: 100_000, until: 200_000 });
    expect(forKey).toHaveLength(2);
    expect(forKey[0]).toMatchObject({ keyId: 'key_u', model: 'alpha', requests: 2, inputTokens: 11, outputTokens: 15 });
    expect(forKey[0].cost).toBeCloseTo(0.75, 10);
    expect(forKey[1]).toEqual({
      keyId: 'key_u',
      model: 'beta',
      requests: 1,
      inputTokens: 10,
      outputTokens: 20,
      cacheReadTokens: 9,
      cacheWriteTokens: 4,
      cacheWrite1hTokens: 3,
      cost: 0,
      unpricedRequests: 1,
      upstreamCost: 0,
      costedRequests: 0,
      costedSpend: 0,
    });

    const all = await store.logs.usage({ since: 100_000, until: 200_001 });
    expect(all.map((r) => [r.keyId, r.model, r.requests])).toEqual([
      [null, 'alpha', 1],
      ['key_u', 'alpha', 3],
      ['key_u', 'beta', 1],
      ['key_v', 'alpha', 1],
    ]);
    expect(await store.logs.usage({ since: 300_000 })).toEqual([]);
  });

  it.skipIf(skip)('stores and replaces settings', async () => {
    expect(await store.settings.get('missing')).toBeUndefined();
    await store.settings.set('motd', 'hello');
    expect(await store.settings.get('motd')).toBe('hello');
    await store.settings.set('motd', '{"json":true}');
    expect(await store.settings.get('motd')).toBe('{"json":true}');
  });
});

describe.each(engines)('migrations on $engine', ({ engine, skip }) => {
  let database: TestDatabase;

  beforeAll(async () => {
    if (!skip) database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it.skipIf(skip)('run once: opening the same database again keeps the data', async () => {
    const first = await database.open();
    await first.settings.set('kept', 'yes');
    await first.close();

    const second = await database.open();
    expect(await second.settings.get('kept')).toBe('yes');
    const applied = await second.db.selectFrom('kysely_migration').select('name').execute();
    expect(applied.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
    await second.close();
  });
});
