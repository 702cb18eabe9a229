/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares
 * on every query. The gateway runs the same few dozen statements over and
 * over, so compiled statements are kept, by SQL text, in a bounded LRU.
 * better-sqlite3 is synchronous, so a statement is never in use twice at once
 * (Kysely's `iterate`, which could hold one open, is not used here).
 *
 * Rows come back as plain objects built here from better-sqlite3's raw arrays:
 * its own object rows set each column through V8's C++ API, which made a task
 * row (29 columns) cost about 40 % more to read (bench/README.md).
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
        statement = withObjectRows(database.prepare(sql));
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/** One builder per list of column names, shared by the statements that return it. */
const builders = new Map<string, RowBuilder>();

/** A statement that returns rows reads them raw and builds each object in one literal of its columns. */
export function withObjectRows(statement: Database.Statement): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  const names = statement.columns().map((column) => column.name);
  // A literal `__proto__` key would set the prototype rather than a column: such rows keep the driver's objects.
  if (names.includes('__proto__')) return statement as unknown as SqliteStatement;
  const key = names.join('\u0000');
  let build = builders.get(key);
  if (!build) {
    // The names are the query's own columns, quoted as JSON string literals; duplicates keep the last, as the driver does.
    build = new Function('r', `return {${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`) as RowBuilder;
    if (builders.size >= DEFAULT_CAPACITY) builders.delete(builders.keys().next().value as string);
    builders.set(key, build);
  }
  const rowOf = build;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(rowOf),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowOf(values);
    },
  };
}
