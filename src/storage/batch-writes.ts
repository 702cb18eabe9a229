/**
 * Multi-row writes (the request log, the usage sums) whose SQL depends only
 * on the statement and the number of rows: Kysely builds and compiles each
 * shape once, later batches only bind their values. Building the query tree
 * for every flush cost about as much as the database's own work for the rows
 * (bench/README.md).
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

type Row = Record<string, unknown>;

interface Shape {
  sql: string;
  columns: string[];
}

/** Batch sizes vary at low traffic: the last few dozen shapes are kept. */
const CAPACITY = 64;

export class BatchWrites {
  private readonly shapes = new Map<string, Shape>();

  /**
   * Runs `build(rows)` (an INSERT of `rows`, with any conflict clause that
   * adds no parameters). Every row must have the same columns in the same
   * order, null rather than undefined.
   */
  async execute<R extends object>(db: Kysely<any>, statement: string, rows: readonly R[], build: (rows: R[]) => Compilable): Promise<void> {
    if (rows.length === 0) return;
    const key = `${statement}:${rows.length}`;
    let shape = this.shapes.get(key);
    if (!shape) {
      const query = build(rows as R[]).compile();
      const columns = Object.keys(rows[0]!);
      // A statement whose parameters are not exactly rows × columns is run as compiled, never cached.
      if (query.parameters.length !== rows.length * columns.length) return void (await db.executeQuery(query));
      shape = { sql: query.sql, columns };
      if (this.shapes.size >= CAPACITY) this.shapes.delete(this.shapes.keys().next().value!);
      this.shapes.set(key, shape);
    }
    const parameters: unknown[] = [];
    for (const row of rows as readonly Row[]) for (const column of shape.columns) parameters.push(row[column] ?? null);
    await db.executeQuery(CompiledQuery.raw(shape.sql, parameters));
  }
}
