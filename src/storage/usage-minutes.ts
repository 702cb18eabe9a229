/**
 * Per-minute usage sums (`usage_minutes`): written with each batch of request
 * log rows (aggregated here first, then added to the stored sums with one
 * upsert, which is safe with several instances on one database), and read as
 * series for the console's charts. Latency quantiles come from the stored
 * histograms, so a chart over a week reads a few thousand rows, never the log.
 */
import { sql, type Kysely } from 'kysely';
import { toNumber } from './columns.js';
import { storableText } from './text.js';
import { bucketOf, firstByteColumns, latencyColumns, quantileOf } from './latency-buckets.js';
import type { Database } from './schema.js';
import type { RequestLogRow, UsagePoint, UsageSeries, UsageSeriesQuery, UsageTotals } from './types.js';

const MINUTE = 60_000;
const LIMIT_KINDS = new Set(['rate_limited', 'quota_exhausted']);
const SUM_COLUMNS = ['requests', 'errors', 'rate_limited', 'failovers', 'input_tokens', 'output_tokens', 'cost', 'latency_ms_sum', ...latencyColumns, ...firstByteColumns] as const;
type SumColumn = (typeof SUM_COLUMNS)[number];
type MinuteSum = Record<'family' | 'model' | 'channel_id' | 'key_id', string> & { bucket: number } & Record<SumColumn, number>;

/** The batch's rows summed per minute, family, model, channel and key. */
export function minuteSums(rows: readonly RequestLogRow[]): MinuteSum[] {
  const sums = new Map<string, MinuteSum>();
  for (const row of rows) {
    const bucket = row.createdAt - (row.createdAt % MINUTE);
    // The same text rules as the log row (a NUL byte must not fail the batch on PostgreSQL), applied
    // before grouping so that two rows the rules make equal share one sum.
    const family = storableText(row.family);
    const model = storableText(row.model);
    const channelId = storableText(row.channelId ?? '');
    const keyId = storableText(row.keyId ?? '');
    const id = `${bucket}\u0000${family}\u0000${model}\u0000${channelId}\u0000${keyId}`;
    let sum = sums.get(id);
    if (!sum) {
      sum = { bucket, family, model, channel_id: channelId, key_id: keyId } as MinuteSum;
      for (const column of SUM_COLUMNS) sum[column] = 0;
      sums.set(id, sum);
    }
    // A refund row carries money back, not a request.
    if (!row.requestId.startsWith('refund:')) sum.requests += 1;
    if (row.httpStatus >= 400) sum.errors += 1;
    if (row.errorKind !== null && LIMIT_KINDS.has(row.errorKind)) sum.rate_limited += 1;
    sum.failovers += Math.max(0, row.triedChannels.length - 1);
    sum.input_tokens += row.inputTokens;
    sum.output_tokens += row.outputTokens;
    sum.cost += row.cost;
    sum.latency_ms_sum += row.latencyMs;
    sum[latencyColumns[bucketOf(row.latencyMs)] as SumColumn] += 1;
    if (row.firstByteMs !== null) sum[firstByteColumns[bucketOf(row.firstByteMs)] as SumColumn] += 1;
  }
  return [...sums.values()];
}

/** Adds the sums to the stored ones (insert, or add on conflict). */
export async function addMinuteSums(typed: Kysely<Database>, sums: readonly MinuteSum[]): Promise<void> {
  const db = typed as Kysely<any>;
  // 40 parameters a row: 200 rows stay under both engines' parameter limits.
  for (let index = 0; index < sums.length; index += 200) {
    await db
      .insertInto('usage_minutes')
      .values(sums.slice(index, index + 200))
      .onConflict((conflict) =>
        conflict.columns(['bucket', 'family', 'model', 'channel_id', 'key_id']).doUpdateSet(
          Object.fromEntries(SUM_COLUMNS.map((column) => [column, sql`usage_minutes.${sql.ref(column)} + excluded.${sql.ref(column)}`])),
        ),
      )
      .execute();
  }
}

const GROUP_COLUMN = { none: null, family: 'family', model: 'model', channel: 'channel_id', key: 'key_id' } as const;

export async function readSeries(typed: Kysely<Database>, query: UsageSeriesQuery): Promise<{ totals: UsageTotals; series: UsageSeries[] }> {
  const db = typed as Kysely<any>;
  const groupColumn = GROUP_COLUMN[query.by];
  const since = query.since - (query.since % MINUTE);
  // Integer division on both engines (bigint / bigint), so buckets align to `step` from the epoch.
  const slot = sql<number>`(bucket / ${sql.lit(query.step)}) * ${sql.lit(query.step)}`;
  let select = db
    .selectFrom('usage_minutes')
    .select(slot.as('t'))
    .select(groupColumn === null ? sql<string>`'all'`.as('grp') : sql<string>`${sql.ref(groupColumn)}`.as('grp'))
    .select(SUM_COLUMNS.map((column) => sql<number>`SUM(${sql.ref(column)})`.as(column)))
    .where('bucket', '>=', since)
    .where('bucket', '<', query.until);
  if (query.family !== undefined) select = select.where('family', '=', query.family);
  if (query.model !== undefined) select = select.where('model', '=', query.model);
  if (query.channelId !== undefined) select = select.where('channel_id', '=', query.channelId);
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  const grouped = groupColumn === null ? select.groupBy(slot) : select.groupBy([slot, sql.ref(groupColumn)]);
  const rows = (await grouped.execute()) as Array<Record<string, unknown>>;

  const total = emptySum();
  const byGroup = new Map<string, UsagePoint[]>();
  for (const row of rows) {
    const sum = readSum(row);
    addInto(total, sum);
    const group = String(row.grp);
    let points = byGroup.get(group);
    if (!points) byGroup.set(group, (points = []));
    points.push({ t: toNumber(row.t), ...pointOf(sum) });
  }
  const series = [...byGroup.entries()]
    .map(([group, points]) => ({ group, points: points.sort((a, b) => a.t - b.t) }))
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  return { totals: pointOf(total), series };
}

type Sum = Record<SumColumn, number>;

function emptySum(): Sum {
  return Object.fromEntries(SUM_COLUMNS.map((column) => [column, 0])) as Sum;
}

function readSum(row: Record<string, unknown>): Sum {
  return Object.fromEntries(SUM_COLUMNS.map((column) => [column, toNumber(row[column])])) as Sum;
}

function addInto(into: Sum, sum: Sum): void {
  for (const column of SUM_COLUMNS) into[column] += sum[column];
}

function pointOf(sum: Sum): UsageTotals {
  const latency = latencyColumns.map((column) => sum[column as SumColumn]);
  const firstByte = firstByteColumns.map((column) => sum[column as SumColumn]);
  return {
    requests: sum.requests,
    errors: sum.errors,
    rateLimited: sum.rate_limited,
    failovers: sum.failovers,
    inputTokens: sum.input_tokens,
    outputTokens: sum.output_tokens,
    cost: sum.cost,
    p50Ms: quantileOf(latency, 0.5),
    p95Ms: quantileOf(latency, 0.95),
    ttftP50Ms: quantileOf(firstByte, 0.5),
  };
}
