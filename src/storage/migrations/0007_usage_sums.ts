/**
 * The console's data: each request log row keeps its attempts (channel,
 * outcome, timing), the log gets indexes for its family and status filters
 * (and the task list one for its family filter),
 * and `usage_minutes` and `usage_hours` hold per-minute and per-hour sums
 * (requests, errors, tokens, cost, latency histograms) per family, model,
 * channel and key, so usage charts read thousands of rows instead of
 * millions (hours for the long ranges, where minutes of sparse traffic
 * would hardly sum anything). Existing log rows are rolled up once here
 * (their failovers count as zero: older rows kept no attempts).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { firstByteColumns, LATENCY_BOUNDS_MS, latencyColumns } from '../latency-buckets.js';

const groupColumns = ['bucket', 'family', 'model', 'channel_id', 'key_id'];

/** `SUM(CASE …)` per histogram bucket of one column, for the backfill. */
function histogramSums(column: string): ReturnType<typeof sql.raw>[] {
  return LATENCY_BOUNDS_MS.map((bound, index) => {
    const lower = index === 0 ? '' : `${column} > ${LATENCY_BOUNDS_MS[index - 1]} AND `;
    return sql.raw(`SUM(CASE WHEN ${lower}${column} <= ${bound} THEN 1 ELSE 0 END)`);
  }).concat(sql.raw(`SUM(CASE WHEN ${column} > ${LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]} THEN 1 ELSE 0 END)`));
}

/** The sum tables and their bucket widths (ms). */
const SUM_TABLES = [
  ['usage_minutes', 60_000],
  ['usage_hours', 3_600_000],
] as const;

async function createSums(db: Kysely<any>, name: string, width: number): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    // '' when none: a unique key cannot hold NULLs the same way on both engines.
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('errors', 'bigint', (c) => c.notNull())
    .addColumn('rate_limited', 'bigint', (c) => c.notNull())
    .addColumn('failovers', 'bigint', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint', (c) => c.notNull())
    .addColumn('output_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cache_read_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cache_write_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addColumn('latency_ms_sum', 'bigint', (c) => c.notNull());
  for (const column of [...latencyColumns, ...firstByteColumns]) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  await table.execute();
  await db.schema.createIndex(`${name}_group`).unique().on(name).columns(groupColumns).execute();

  const histograms = [...histogramSums('latency_ms'), ...histogramSums('first_byte_ms')];
  const bucket = sql.raw(`(created_at / ${width}) * ${width}`);
  await sql`
    INSERT INTO ${sql.table(name)} (${sql.raw([...groupColumns, 'requests', 'errors', 'rate_limited', 'failovers', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cost', 'latency_ms_sum', ...latencyColumns, ...firstByteColumns].join(', '))})
    SELECT ${bucket}, family, model, COALESCE(channel_id, ''), COALESCE(key_id, ''),
      SUM(CASE WHEN request_id LIKE 'refund:%' THEN 0 ELSE 1 END),
      SUM(CASE WHEN http_status >= 400 THEN 1 ELSE 0 END),
      SUM(CASE WHEN error_kind IN ('rate_limited', 'quota_exhausted') THEN 1 ELSE 0 END),
      0, SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(cost), SUM(latency_ms),
      ${sql.join(histograms)}
    FROM request_logs
    GROUP BY ${bucket}, family, model, COALESCE(channel_id, ''), COALESCE(key_id, '')
  `.execute(db);
}

export const usageSums: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('request_logs').addColumn('attempts', 'text').execute();
    await db.schema.createIndex('request_logs_family_created').ifNotExists().on('request_logs').columns(['family', 'created_at']).execute();
    await db.schema.createIndex('request_logs_status_created').ifNotExists().on('request_logs').columns(['http_status', 'created_at']).execute();
    // The console's "errors only" filter: a few rows among many, newest first, without sorting them all.
    await db.schema.createIndex('request_logs_errors_created').ifNotExists().on('request_logs').column('created_at').where(sql.ref('http_status'), '>=', 400).execute();
    await db.schema.createIndex('tasks_family_created').ifNotExists().on('tasks').columns(['family', 'created_at']).execute();

    for (const [name, width] of SUM_TABLES) await createSums(db, name, width);
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const [name] of SUM_TABLES) await db.schema.dropTable(name).execute();
    await db.schema.dropIndex('tasks_family_created').ifExists().execute();
    await db.schema.dropIndex('request_logs_errors_created').ifExists().execute();
    await db.schema.dropIndex('request_logs_status_created').ifExists().execute();
    await db.schema.dropIndex('request_logs_family_created').ifExists().execute();
    await db.schema.alterTable('request_logs').dropColumn('attempts').execute();
  },
};
