/**
 * The request log's filters read an index on SQLite, with the indexes
 * migration 0020 left: each query the repository builds is planned with
 * EXPLAIN QUERY PLAN over a fresh schema, and no filtered page may scan the
 * table. (Error statuses read the partial errors index; `2xx` reads by time.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { KyselyRequestLogRepository } from '../../src/storage/logs.js';
import { createFreshSqliteSchema } from '../../src/storage/migrations/fresh-sqlite.js';
import type { LogQuery } from '../../src/storage/request-log-types.js';
import type { Database } from '../../src/storage/schema.js';
import { openSqliteFile } from '../../src/storage/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-log-plans-'));
const file = openSqliteFile(join(dir, 'plans.db'));
createFreshSqliteSchema(file);
let last: { sql: string; parameters: readonly unknown[] } | undefined;
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: file }),
  log: (event) => {
    if (event.level === 'query') last = { sql: event.query.sql, parameters: event.query.parameters };
  },
});
const logs = new KyselyRequestLogRepository(db);

async function planOf(query: LogQuery): Promise<string> {
  await logs.query({ since: 0, until: 10_000, ...query });
  const { sql, parameters } = last!;
  return file
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...parameters)
    .map((step) => (step as { detail: string }).detail)
    .join(' | ');
}

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('request-log query plans on SQLite', () => {
  it.each([
    [{ status: { from: 429, to: 429 } }, 'request_logs_errors_created'],
    [{ status: { from: 400, to: 499 } }, 'request_logs_errors_created'],
    [{ status: { from: 500, to: 599 } }, 'request_logs_errors_created'],
    [{ status: { from: 400, to: 599 } }, 'request_logs_errors_created'],
    [{ status: { from: 200, to: 299 } }, 'request_logs_created'],
    [{ teamId: 'team_a' }, 'request_logs_team_created'],
    [{ teamIds: ['team_a', 'team_b', 'team_c'] }, 'request_logs_team_created'],
    [{ userId: 'user_a' }, 'request_logs_user_created'],
    [{ keyId: 'key_a' }, 'request_logs_key_created'],
    [{ model: 'm-1' }, 'request_logs_model_created'],
    [{ channelId: 'ch_1' }, 'request_logs_channel_created'],
    [{ family: 'images' }, 'request_logs_family_created'],
  ] as [LogQuery, string][])('%o reads %s', async (query, index) => {
    const plan = await planOf(query);
    expect(plan).toContain(`INDEX ${index}`);
    expect(plan).not.toMatch(/SCAN request_logs(?! USING)/);
  });
});
