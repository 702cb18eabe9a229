/**
 * A query on the request path whose SQL never changes, only its values (a
 * task by id): Kysely builds, freezes and compiles its query tree on every
 * call, which cost about as much as SQLite's own lookup (bench/README.md).
 * Here the tree is built and compiled once, with stand-ins for the values,
 * and every later call only binds the values in their places.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** Values that no caller passes: they mark where each argument lands among the parameters. */
const standIn = (index: number) => `\u0000prepared-query-value-${index}\u0000`;

interface Compiled {
  sql: string;
  /** Per parameter: the argument's index, or -1 for a constant kept in `constants`. */
  slots: number[];
  constants: unknown[];
}

/** One per database handle (a repository's field): the SQL is its dialect's. */
export class PreparedQuery<Args extends unknown[], Row> {
  private compiled: Compiled | undefined;

  /** `build` must use each argument only as a value (never to choose the query's shape). */
  constructor(
    private readonly db: Kysely<any>,
    private readonly build: (db: Kysely<any>, ...args: Args) => Compilable<Row>,
  ) {}

  async execute(...args: Args): Promise<Row[]> {
    const compiled = (this.compiled ??= this.compile());
    const parameters = compiled.slots.map((slot, i) => (slot === -1 ? compiled.constants[i] : args[slot]));
    const result = await this.db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
    return result.rows;
  }

  private compile(): Compiled {
    // One stand-in per parameter of `build` after the handle.
    const standIns = Array.from({ length: this.build.length - 1 }, (_, i) => standIn(i)) as Args;
    const query = this.build(this.db, ...standIns).compile();
    const slots = query.parameters.map((value) => (typeof value === 'string' ? standIns.indexOf(value) : -1));
    return { sql: query.sql, slots, constants: [...query.parameters] };
  }
}
