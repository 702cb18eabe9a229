/**
 * Two processes opening one SQLite database that lacks migrations (a gateway
 * and the CLI after an upgrade) both open it: one migrates inside a write
 * transaction, the other waits for it and finds nothing left to do.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationProvider, migrations } from '../../src/storage/migrations/index.js';
import { openSqliteFile } from '../../src/storage/sqlite-driver.js';
import { readSqliteSchema } from '../../scripts/migrated-sqlite.js';

const run = promisify(execFile);

describe('SQLite migrations from two processes at once', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('both open the store; every migration is applied once', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'switchyard-migrate-race-'));
    const file = openSqliteFile(join(dataDir, 'switchyard.db'));
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) });
    const [first] = Object.keys(migrations);
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(first);
    expect(error).toBeUndefined();
    await db.destroy();

    const open = `import { openStore } from './src/storage/open.ts'; const store = await openStore({ dataDir: process.env.DIR }); await store.keys.count(); await store.close(); console.log('opened');`;
    const opened = await Promise.all(
      [1, 2].map(() => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', open], { env: { ...process.env, DIR: dataDir } }).then(({ stdout }) => stdout.trim())),
    );
    expect(opened).toEqual(['opened', 'opened']);
    const after = openSqliteFile(join(dataDir, 'switchyard.db'));
    try {
      expect(readSqliteSchema(after).migrationNames).toEqual(Object.keys(migrations).sort());
    } finally {
      after.close();
    }
  }, 60_000);
});
