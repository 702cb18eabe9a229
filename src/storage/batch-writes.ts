/**
 * Multi-row writes (the request log, the usage sums, stored responses) whose
 * SQL depends only on the statement and the number of rows: Kysely builds and
 * compiles each shape once, later batches only bind their values. Building
 * the query tree for every flush cost about as much as the database's own
 * work for the rows (bench/README.md).
 *
 * A batch is written as runs of a few fixed sizes (powers of two), not as one
 * statement of its own size: each size is one more statement SQLite keeps
 * prepared, about 2 kB of native memory per row it binds, and batches of
 * every size from 1 to 100 had made the statement cache hold about 10 MB.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

type Row = Record<string, unknown>;

interface Shape {
  sql: string;
  columns: string[];
}

/**
 * Rows per statement, largest first: a batch of up to 255 rows takes at most
 * eight statements, each statement has at most RUN_SIZES.length shapes, and
 * no statement binds more than 128 rows, which keeps rows of up to 250
 * columns under both engines' parameter limits (callers need not chunk).
 */
const RUN_SIZES = [128, 64, 32, 16, 8, 4, 2, 1];

export class BatchWrites {
  private readonly shapes = new Map<string, Shape>();

  /**
   * Runs `build(rows)` (an INSERT of `rows`, with any conflict clause that
   * adds no parameters). Every row must have the same columns in the same
   * order, null rather than undefined.
   */
  async execute<R extends object>(db: Kysely<any>, statement: string, rows: readonly R[], build: (rows: R[]) => Compilable): Promise<void> {
    let start = 0;
    while (start < rows.length) {
      const size = RUN_SIZES.find((candidate) => candidate <= rows.length - start)!;
      await this.executeRun(db, statement, rows.slice(start, start + size), build);
      start += size;
    }
  }

  private async executeRun<R extends object>(db: Kysely<any>, statement: string, rows: R[], build: (rows: R[]) => Compilable): Promise<void> {
    const key = `${statement}:${rows.length}`;
    let shape = this.shapes.get(key);
    if (!shape) {
      const query = build(rows).compile();
      const columns = Object.keys(rows[0]!);
      // A statement whose parameters are not exactly rows × columns is run as compiled, never cached.
      if (query.parameters.length !== rows.length * columns.length) return void (await db.executeQuery(query));
      shape = { sql: query.sql, columns };
      this.shapes.set(key, shape);
    }
    // Sized once: up to 128 rows × every column, bound on every flush.
    const columns = shape.columns;
    const parameters = new Array<unknown>(rows.length * columns.length);
    let at = 0;
    for (const row of rows as readonly Row[]) for (let i = 0; i < columns.length; i++) parameters[at++] = row[columns[i]!] ?? null;
    await db.executeQuery(CompiledQuery.raw(shape.sql, parameters));
  }
}
