/**
 * Rows read through the statement cache are built from better-sqlite3's raw
 * arrays (storage/sqlite-statement-cache.ts): they must be the objects the
 * driver itself returns, for plain reads, expressions, duplicate names and
 * RETURNING, and a write must still report what it changed.
 */
import type SqliteDatabase from 'better-sqlite3';
import { openSqliteFile } from '../../src/storage/sqlite-driver.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withObjectRows, withStatementCache } from '../../src/storage/sqlite-statement-cache.js';

let file: SqliteDatabase.Database;
beforeEach(() => {
  file = openSqliteFile(':memory:');
  file.exec(`create table t (id text primary key, n integer, body text, at bigint)`);
  file.exec(`insert into t values ('a', 1, '{"x":1}', 10), ('b', null, null, 20)`);
});
afterEach(() => file.close());

const queries = [
  ['select * from t order by id', []],
  ['select id, n + 1 as "next", count(*) over () from t order by id', []],
  ['select id, n as id from t order by 1', []],
  ['select * from t where id = ?', ['b']],
] as const;

describe('rows built from raw arrays', () => {
  it.each(queries)('%s reads as the driver reads it', (sql, parameters) => {
    const expected = file.prepare(sql).all([...parameters]);
    const statement = withObjectRows(file.prepare(sql));
    expect(statement.reader).toBe(true);
    expect(statement.all(parameters)).toEqual(expected);
    expect([...statement.iterate(parameters)]).toEqual(expected);
  });

  it('returns what a RETURNING write changed, and a plain write still counts its changes', () => {
    const cached = withStatementCache(file);
    const returned = cached.prepare('update t set n = ? where id = ? returning id, n, at').all([5, 'a']);
    expect(returned).toEqual([{ id: 'a', n: 5, at: 10 }]);
    const write = cached.prepare('update t set n = n + 1');
    expect(write.reader).toBe(false);
    expect(write.run([]).changes).toBe(2);
    expect(cached.prepare('select n from t order by id').all([])).toEqual([{ n: 6 }, { n: null }]);
  });

  it('leaves a column named __proto__ to the driver: a literal would set the prototype', () => {
    const sql = 'select id as "__proto__", n from t order by id';
    const rows = withObjectRows(file.prepare(sql)).all([]) as Record<string, unknown>[];
    expect(rows).toEqual(file.prepare(sql).all());
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });
});
