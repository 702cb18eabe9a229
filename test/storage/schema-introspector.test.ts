/**
 * Migrations on PostgreSQL look at their own schema only: another schema of
 * the same database being created and dropped meanwhile (parallel test files
 * do this all the time) never fails them, and the migrator's existence check
 * sees only the schema's own tables.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { introspectingOnly } from '../../src/storage/migrations/schema-introspector.js';
import { postgresConnection } from '../../src/storage/postgres-connection.js';
import { createTestDatabase, postgresUrl, skipPostgres } from './engines.js';

describe.skipIf(skipPostgres)('the migrator reads one PostgreSQL schema', () => {
  it("lists that schema's tables only", async () => {
    const [mine, other] = [`t_${randomBytes(6).toString('hex')}`, `t_${randomBytes(6).toString('hex')}`];
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...postgresConnection(postgresUrl), max: 1 }) }) });
    try {
      for (const schema of [mine, other]) await db.schema.createSchema(schema).execute();
      await db.schema.withSchema(mine).createTable('kept').addColumn('id', 'text').execute();
      await db.schema.withSchema(other).createTable('elsewhere').addColumn('id', 'text').execute();
      const narrowed = introspectingOnly(db, mine);
      expect((await narrowed.introspection.getTables()).map((table) => [table.schema, table.name])).toEqual([[mine, 'kept']]);
      expect(await narrowed.introspection.getSchemas()).toEqual([{ name: mine }]);
      // Everything else is the instance itself.
      expect(narrowed.selectFrom).toBeTypeOf('function');
      expect((await narrowed.selectNoFrom((eb) => eb.val('x').as('one')).execute())[0]).toEqual({ one: 'x' });
    } finally {
      for (const schema of [mine, other]) await db.schema.dropSchema(schema).ifExists().cascade().execute();
      await db.destroy();
    }
  });

  it('migrates while other schemas come and go', async () => {
    const churn = new pg.Pool({ ...postgresConnection(postgresUrl), max: 1 });
    let churning = true;
    const loop = (async () => {
      while (churning) {
        const schema = `t_${randomBytes(6).toString('hex')}`;
        await churn.query(`create schema "${schema}"`);
        await churn.query(`create table "${schema}".churned (id serial primary key, note text)`);
        await churn.query(`drop schema "${schema}" cascade`);
      }
    })();
    try {
      for (let i = 0; i < 3; i++) {
        const database = await createTestDatabase('postgres');
        try {
          const store = await database.open();
          await store.close();
        } finally {
          await database.destroy();
        }
      }
    } finally {
      churning = false;
      await loop;
      await churn.end();
    }
  }, 120_000);
});
