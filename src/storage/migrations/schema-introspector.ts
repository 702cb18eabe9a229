/**
 * What kysely's migrator asks of the database, answered for one PostgreSQL
 * schema only. Its own introspector reads every table of every schema with
 * `has_schema_privilege` and `pg_get_serial_sequence`, which fail outright
 * ('schema "…" does not exist') when another schema of the database is
 * dropped during the read, and which grow with every schema the database
 * holds. The migrator needs only the names of the schema's tables.
 */
import { type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type SchemaMetadata, sql, type TableMetadata } from 'kysely';

class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${this.schema} and c.relkind in ('r', 'p', 'v')`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: this.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * The same Kysely instance, its `introspection` narrowed to `schema`. Every
 * other member is the instance's own, bound to it (kysely keeps its state in
 * private fields, which a proxy cannot reach).
 */
export function introspectingOnly<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection = new SchemaIntrospector(db as Kysely<unknown>, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
