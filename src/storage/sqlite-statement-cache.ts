/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares
 * on every query. The gateway runs the same few dozen statements over and
 * over, so compiled statements are kept, by SQL text, in a bounded LRU.
 * better-sqlite3 is synchronous, so a statement is never in use twice at once
 * (Kysely's `iterate`, which could hold one open, is not used here).
 */
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const DEFAULT_CAPACITY = 256;

export function withStatementCache(database: Database.Database, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        // Refresh its place in the LRU order.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
