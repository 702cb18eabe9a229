/**
 * Usage sums per minute (`usage_minutes`) and per hour (`usage_hours`):
 * written with each batch of request log rows (aggregated here first, then
 * added to the stored sums with one upsert per table, which is safe with
 * several instances on one database), and read as series for the console's
 * charts: a step of whole hours reads the hours, any other the minutes.
 * Latency quantiles come from the stored histograms, so a chart reads sums,
 * never the log.
 */
import { sql, type Kysely } from 'kysely';
import { isLimitRefusal } from '../core/errors.js';
import { toNumber } from './columns.js';
import { storableText } from './text.js';
import { toSummary, type GroupedUsageRow } from './usage-summary.js';
import { BatchWrites } from './batch-writes.js';
import { bucketOf, firstByteColumns, latencyColumns, quantileOf } from './latency-buckets.js';
import type { Database } from './schema.js';
import type { RequestLogRow, UsagePoint, UsageSeries, UsageSeriesQuery, UsageTotals } from './request-log-types.js';
import { inTeams } from './id-lists.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const TABLES = [
  ['usage_minutes', MINUTE],
  ['usage_hours', HOUR],
] as const;
/** The upstream cost of the requests whose channel prices their model, their count, and what clients paid for them. */
const COST_COLUMNS = ['upstream_cost', 'costed_requests', 'costed_spend'] as const;
const SUM_COLUMNS = [
  'requests',
  'errors',
  'rate_limited',
  'failovers',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'cost',
  'latency_ms_sum',
  ...latencyColumns,
  ...firstByteColumns,
  ...COST_COLUMNS,
  'cache_write_1h_tokens',
  'unpriced_requests',
] as const;
type SumColumn = (typeof SUM_COLUMNS)[number];
type BucketSum = Record<'family' | 'model' | 'channel_id' | 'key_id' | 'team_id' | 'user_id', string> & { bucket: number } & Record<SumColumn, number>;

/** The batch's rows summed per bucket of `width` ms, family, model, channel, key, and the key's team and user. */
export function bucketSums(rows: readonly RequestLogRow[], width: number): BucketSum[] {
  const sums = new Map<string, BucketSum>();
  for (const row of rows) {
    const bucket = row.createdAt - (row.createdAt % width);
    // The same text rules as the log row (a NUL byte must not fail the batch on PostgreSQL), applied
    // before grouping so that two rows the rules make equal share one sum.
    const family = storableText(row.family);
    const model = storableText(row.model);
    const channelId = storableText(row.channelId ?? '');
    const owner: Owner = { key_id: storableText(row.keyId ?? ''), team_id: row.teamId ?? '', user_id: row.userId ?? '' };
    const sum = sumOf(sums, bucket, family, model, channelId, owner);
    // A refund row carries money back, not a request.
    if (!row.requestId.startsWith('refund:')) sum.requests += 1;
    if (row.httpStatus >= 400) sum.errors += 1;
    if (isLimitRefusal(row.errorKind)) sum.rate_limited += 1;
    sum.failovers += Math.max(0, row.triedChannels.length - 1);
    sum.input_tokens += row.inputTokens;
    sum.output_tokens += row.outputTokens;
    sum.cache_read_tokens += row.cacheReadTokens;
    sum.cache_write_tokens += row.cacheWriteTokens;
    sum.cost += row.cost;
    if (row.upstreamCost !== null) addUpstreamCost(sum, row.upstreamCost, row.cost);
    sum.cache_write_1h_tokens += row.cacheWrite1hTokens ?? 0;
    if (row.unpriced) sum.unpriced_requests += 1;
    sum.latency_ms_sum += row.latencyMs;
    sum[latencyColumns[bucketOf(row.latencyMs)] as SumColumn] += 1;
    if (row.firstByteMs !== null) sum[firstByteColumns[bucketOf(row.firstByteMs)] as SumColumn] += 1;
  }
  return [...sums.values()];
}

function addUpstreamCost(sum: BucketSum, upstreamCost: number, charged: number): void {
  sum.upstream_cost += upstreamCost;
  sum.costed_requests += 1;
  sum.costed_spend += charged;
}

/** Whose a sum is: the key, and its team and user ('' for none). */
type Owner = Pick<BucketSum, 'key_id' | 'team_id' | 'user_id'>;

/** The sum of one bucket and group in `sums`, made at zero on first use. */
function sumOf(sums: Map<string, BucketSum>, bucket: number, family: string, model: string, channelId: string, owner: Owner): BucketSum {
  const id = `${bucket}\u0000${family}\u0000${model}\u0000${channelId}\u0000${owner.key_id}\u0000${owner.team_id}\u0000${owner.user_id}`;
  let sum = sums.get(id);
  if (!sum) {
    sum = { bucket, family, model, channel_id: channelId, key_id: owner.key_id, team_id: owner.team_id, user_id: owner.user_id } as BucketSum;
    for (const column of SUM_COLUMNS) sum[column] = 0;
    sums.set(id, sum);
  }
  return sum;
}

/** The sums of narrower buckets added up per bucket of `width` ms (a multiple of theirs) and group. */
function rolledUp(sums: readonly BucketSum[], width: number): BucketSum[] {
  const wider = new Map<string, BucketSum>();
  for (const sum of sums) {
    const into = sumOf(wider, sum.bucket - (sum.bucket % width), sum.family, sum.model, sum.channel_id, sum);
    for (const column of SUM_COLUMNS) into[column] += sum[column];
  }
  return [...wider.values()];
}

/** Adds the rows to the stored sums of every table (insert, or add on conflict). */
export async function addToSums(typed: Kysely<Database>, rows: readonly RequestLogRow[], writes = new BatchWrites()): Promise<void> {
  const db = typed as Kysely<any>;
  // The rows are summed once, per minute; the hours add up the minutes.
  let sums = bucketSums(rows, TABLES[0][1]);
  for (const [table, width] of TABLES) {
    if (width !== TABLES[0][1]) sums = rolledUp(sums, width);
    await writes.execute(db, table, sums, (batch) =>
      db
        .insertInto(table)
        .values(batch)
        .onConflict((conflict) =>
          conflict
            .columns(['bucket', 'family', 'model', 'channel_id', 'key_id', 'team_id', 'user_id'])
            .doUpdateSet(Object.fromEntries(SUM_COLUMNS.map((column) => [column, sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`]))),
        ),
    );
  }
}

/** The series that sums every group beyond the busiest `top`. */
export const OTHER_GROUP = '(other)';

const GROUP_COLUMN = { none: null, family: 'family', model: 'model', channel: 'channel_id', key: 'key_id', team: 'team_id', user: 'user_id' } as const;

export async function readSeries(typed: Kysely<Database>, query: UsageSeriesQuery): Promise<{ totals: UsageTotals; series: UsageSeries[] }> {
  const db = typed as Kysely<any>;
  const groupColumn = GROUP_COLUMN[query.by];
  const [table, width] = query.step % HOUR === 0 ? TABLES[1] : TABLES[0];
  const since = query.since - (query.since % width);
  // Integer division on both engines (bigint / bigint), so buckets align to `step` from the epoch.
  const slot = sql<number>`(bucket / ${sql.lit(query.step)}) * ${sql.lit(query.step)}`;
  let base = db.selectFrom(table).where('bucket', '>=', since).where('bucket', '<', query.until);
  if (query.family !== undefined) base = base.where('family', '=', query.family);
  if (query.model !== undefined) base = base.where('model', '=', query.model);
  if (query.channelId !== undefined) base = base.where('channel_id', '=', query.channelId);
  if (query.keyId !== undefined) base = base.where('key_id', '=', query.keyId);
  if (query.teamId !== undefined) base = base.where('team_id', '=', query.teamId);
  if (query.teamIds !== undefined) base = base.where(inTeams(query.teamIds));
  if (query.userId !== undefined) base = base.where('user_id', '=', query.userId);
  const sums = SUM_COLUMNS.map((column) => sql<number>`SUM(${sql.ref(column)})`.as(column));

  const series: UsageSeries[] = [];
  const total = emptySum();
  const collect = (group: string, rows: Array<Record<string, unknown>>) => {
    const points: UsagePoint[] = [];
    const groupTotal = emptySum();
    for (const row of rows) {
      const sum = readSum(row);
      addInto(groupTotal, sum);
      points.push({ t: toNumber(row.t), ...pointOf(sum) });
    }
    addInto(total, groupTotal);
    if (points.length > 0) series.push({ group, totals: pointOf(groupTotal), points: points.sort((a, b) => a.t - b.t) });
  };
  if (groupColumn === null) {
    collect('all', await base.select(slot.as('t')).select(sums).groupBy(slot).execute());
    return { totals: pointOf(total), series };
  }
  // The busiest groups get a series each and the rest share one ('other'), so an answer stays
  // small however many keys or models there are.
  const busiest = await base
    .select(sql.ref(groupColumn).as('grp'))
    .select(sql<number>`SUM(requests)`.as('requests'))
    .groupBy(sql.ref(groupColumn))
    .orderBy(sql`SUM(requests)`, 'desc')
    .orderBy(sql.ref(groupColumn))
    .limit(query.top + 1)
    .execute();
  const named = busiest.slice(0, query.top).map((row) => String(row.grp));
  if (named.length === 0) return { totals: pointOf(total), series };
  const rows = await base
    .select(slot.as('t'))
    .select(sql.ref(groupColumn).as('grp'))
    .select(sums)
    .where(sql.ref(groupColumn), 'in', named)
    .groupBy([slot, sql.ref(groupColumn)])
    .execute();
  const byGroup = new Map<string, Array<Record<string, unknown>>>(named.map((group) => [group, []]));
  for (const row of rows) byGroup.get(String(row.grp))?.push(row);
  for (const group of named) collect(group, byGroup.get(group)!);
  if (busiest.length > query.top) {
    collect(OTHER_GROUP, await base.select(slot.as('t')).select(sums).where(sql.ref(groupColumn), 'not in', named).groupBy(slot).execute());
  }
  return { totals: pointOf(total), series };
}

/** Totals per key, model, channel, team and user from the hourly sums, over whole hours [since, until). */
export async function hourlyUsage(
  typed: Kysely<Database>,
  query: { keyId?: string; teamId?: string; teamIds?: readonly string[]; userId?: string; since?: number; until?: number },
): Promise<GroupedUsageRow[]> {
  const db = typed as Kysely<any>;
  let select = db
    .selectFrom('usage_hours')
    .select(['key_id', 'model', 'channel_id', 'team_id', 'user_id'])
    .select(
      ['requests', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cache_write_1h_tokens', 'cost', 'unpriced_requests', ...COST_COLUMNS].map((column) =>
        sql<number>`SUM(${sql.ref(column)})`.as(column),
      ),
    );
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.teamId !== undefined) select = select.where('team_id', '=', query.teamId);
  if (query.teamIds !== undefined) select = select.where(inTeams(query.teamIds));
  if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
  if (query.since !== undefined) select = select.where('bucket', '>=', query.since);
  if (query.until !== undefined) select = select.where('bucket', '<', query.until);
  const rows = await select.groupBy(['key_id', 'model', 'channel_id', 'team_id', 'user_id']).execute();
  return (rows as unknown as Array<Parameters<typeof toSummary>[0]>).map(toSummary);
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
    upstreamCost: sum.upstream_cost,
    costedRequests: sum.costed_requests,
    costedSpend: sum.costed_spend,
    unpricedRequests: sum.unpriced_requests,
    p50Ms: quantileOf(latency, 0.5),
    p95Ms: quantileOf(latency, 0.95),
    ttftP50Ms: quantileOf(firstByte, 0.5),
  };
}
