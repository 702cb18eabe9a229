import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { BatchWrites } from './batch-writes.js';
import { fromFlag, fromJson, toFlag, toJson, toNullableNumber, toNumber } from './columns.js';
import type { Database, RequestLogsTable } from './schema.js';
import { storableNullable, storableText } from './text.js';
import { isWellFormedId } from './ids.js';
import { olderThan } from './paging.js';
import { inTeams } from './id-lists.js';
import type { Attempt } from '../core/attempt.js';
import type { EstimatedPart } from '../core/chat.js';
import type { LogQuery, RequestLogRepository, RequestLogRow, UsageQuery, UsageReport, UsageSeriesQuery, UsageSummaryRow } from './request-log-types.js';
import { addToSums, hourlyUsage, readSeries } from './usage-sums.js';
import { reportOf, toSummary, type GroupedUsageRow } from './usage-summary.js';

const defaultLimit = 100;
const maxLimit = 1000;
const HOUR = 3_600_000;

/** The log's side of the sums' cost columns: a row's upstream cost is known when it is not null. */
const upstreamCostSums = [
  sql<number>`SUM(COALESCE(upstream_cost, 0))`.as('upstream_cost'),
  sql<number>`SUM(CASE WHEN upstream_cost IS NULL THEN 0 ELSE 1 END)`.as('costed_requests'),
  sql<number>`SUM(CASE WHEN upstream_cost IS NULL THEN 0 ELSE cost END)`.as('costed_spend'),
];

/** Every text column goes through storableText: one NUL byte must not fail the batch on PostgreSQL. */
function toColumns(row: RequestLogRow): Insertable<RequestLogsTable> {
  return {
    id: row.id,
    request_id: storableText(row.requestId),
    key_id: storableNullable(row.keyId),
    team_id: row.teamId ?? null,
    user_id: row.userId ?? null,
    family: storableText(row.family),
    model: storableText(row.model),
    upstream_model: storableNullable(row.upstreamModel),
    channel_id: storableNullable(row.channelId),
    tried_channels: toJson(row.triedChannels),
    http_status: row.httpStatus,
    error_kind: storableNullable(row.errorKind),
    error_message: storableNullable(row.errorMessage),
    stream: toFlag(row.stream),
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_write_tokens: row.cacheWriteTokens,
    cache_write_1h_tokens: row.cacheWrite1hTokens ?? 0,
    reasoning_tokens: row.reasoningTokens,
    estimated: toFlag(row.estimated),
    estimated_parts: row.estimatedParts && row.estimatedParts.length > 0 ? row.estimatedParts.join(',') : null,
    cost: row.cost,
    upstream_cost: row.upstreamCost,
    unpriced: toFlag(row.unpriced ?? false),
    latency_ms: Math.round(row.latencyMs),
    first_byte_ms: row.firstByteMs === null ? null : Math.round(row.firstByteMs),
    client_ip: storableNullable(row.clientIp),
    translation: storableNullable(row.translation),
    attempts: row.attempts.length === 0 ? null : storableText(toJson(row.attempts)),
    images: row.images ?? null,
    created_at: row.createdAt,
  };
}

const knownParts: ReadonlySet<string> = new Set<EstimatedPart>(['input', 'output']);

function partsOf(column: string | null): EstimatedPart[] {
  if (!column) return [];
  return column.split(',').filter((part): part is EstimatedPart => knownParts.has(part));
}

function toRow(row: Selectable<RequestLogsTable>): RequestLogRow {
  return {
    id: row.id,
    requestId: row.request_id,
    keyId: row.key_id,
    teamId: row.team_id ?? null,
    userId: row.user_id ?? null,
    family: row.family,
    model: row.model,
    upstreamModel: row.upstream_model,
    channelId: row.channel_id,
    triedChannels: fromJson<string[]>(row.tried_channels) ?? [],
    httpStatus: toNumber(row.http_status),
    errorKind: row.error_kind,
    errorMessage: row.error_message,
    stream: fromFlag(row.stream),
    inputTokens: toNumber(row.input_tokens),
    outputTokens: toNumber(row.output_tokens),
    cacheReadTokens: toNumber(row.cache_read_tokens),
    cacheWriteTokens: toNumber(row.cache_write_tokens),
    cacheWrite1hTokens: toNumber(row.cache_write_1h_tokens),
    reasoningTokens: toNumber(row.reasoning_tokens),
    estimated: fromFlag(row.estimated),
    estimatedParts: partsOf(row.estimated_parts),
    cost: toNumber(row.cost),
    upstreamCost: toNullableNumber(row.upstream_cost),
    unpriced: fromFlag(row.unpriced),
    latencyMs: toNumber(row.latency_ms),
    firstByteMs: toNullableNumber(row.first_byte_ms),
    clientIp: row.client_ip,
    translation: row.translation,
    attempts: fromJson<Attempt[]>(row.attempts) ?? [],
    images: toNullableNumber(row.images),
    createdAt: toNumber(row.created_at),
  };
}

/**
 * Request logs. Rows arrive with their ids already set (`log_…`, see ids.ts) so
 * the batching writer can name them before they reach the database.
 */
export class KyselyRequestLogRepository implements RequestLogRepository {
  private readonly writes = new BatchWrites();

  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: RequestLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    // The usage sums move with the rows: a batch the database refuses adds nothing to them.
    await this.db.transaction().execute(async (trx) => {
      await this.writes.execute(trx, 'request_logs', rows.map(toColumns), (batch) => trx.insertInto('request_logs').values(batch));
      await addToSums(trx, rows, this.writes);
    });
  }

  async get(id: string): Promise<RequestLogRow | undefined> {
    // Ids come from URLs: one PostgreSQL cannot compare (a NUL byte) is simply not found.
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('request_logs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRow(row);
  }

  series(query: UsageSeriesQuery) {
    return readSeries(this.db, query);
  }

  /** Newest first; page back by passing the last row's `createdAt` as `before`. */
  async prune(options: { before?: number; keepRows?: number; batch: number }): Promise<number> {
    let cutoff = options.before;
    if (options.keepRows !== undefined) {
      // The oldest row within the cap: everything older goes (rows sharing its time stay, so the cap may be exceeded by a few).
      const edge = await this.db
        .selectFrom('request_logs')
        .select('created_at')
        .orderBy('created_at', 'desc')
        .limit(1)
        .offset(Math.max(0, options.keepRows - 1))
        .executeTakeFirst();
      if (edge) cutoff = Math.max(cutoff ?? 0, toNumber(edge.created_at));
    }
    if (cutoff === undefined) return 0;
    const oldest = this.db.selectFrom('request_logs').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(options.batch);
    const result = await this.db.deleteFrom('request_logs').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async query(query: LogQuery): Promise<RequestLogRow[]> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? defaultLimit), 1), maxLimit);
    let select = this.db.selectFrom('request_logs').selectAll();
    if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
    if (query.teamId !== undefined) select = select.where('team_id', '=', query.teamId);
    if (query.teamIds !== undefined) select = select.where(inTeams(query.teamIds));
    if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
    if (query.model !== undefined) select = select.where('model', '=', query.model);
    if (query.channelId !== undefined) select = select.where('channel_id', '=', query.channelId);
    if (query.family !== undefined) select = select.where('family', '=', query.family);
    if (query.status !== undefined) {
      const { from, to } = query.status;
      // Errors (400 and up) are said with the partial index's own term, so the planner takes that index
      // (the only one on status: the rest of the log is read by time).
      if (from >= 400) select = select.where('http_status', '>=', 400);
      if (from === to) select = select.where('http_status', '=', from);
      else if (!(from === 400 && to >= 599)) select = select.where('http_status', '>=', from).where('http_status', '<=', to);
    }
    if (query.before !== undefined) select = select.where('created_at', '<', query.before);
    if (query.until !== undefined) select = select.where('created_at', '<', query.until);
    if (query.since !== undefined) select = select.where('created_at', '>=', query.since);
    if (query.after !== undefined) select = select.where(olderThan(query.after));
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toRow);
  }

  /**
   * Sums per key and model over [since, until), exact: whole hours from the
   * hourly sums, the partial hours at either end from the log itself (so a
   * month's totals read a few thousand rows, not the month's log).
   */
  async usage(query: UsageQuery): Promise<UsageSummaryRow[]> {
    return (await this.usageReport(query)).byKey;
  }

  async usageReport(query: UsageQuery): Promise<UsageReport> {
    const { since, until } = query;
    const firstHour = since === undefined ? undefined : Math.ceil(since / HOUR) * HOUR;
    const lastHour = until === undefined ? undefined : Math.floor(until / HOUR) * HOUR;
    if (firstHour !== undefined && lastHour !== undefined && firstHour >= lastHour) return reportOf([await this.logUsage(query)]);
    const owner = { keyId: query.keyId, teamId: query.teamId, teamIds: query.teamIds, userId: query.userId };
    const parts = [await hourlyUsage(this.db, { ...owner, since: firstHour, until: lastHour })];
    if (since !== undefined && since < firstHour!) parts.push(await this.logUsage({ ...owner, since, until: firstHour }));
    if (until !== undefined && lastHour! < until) parts.push(await this.logUsage({ ...owner, since: lastHour, until }));
    return reportOf(parts);
  }

  private async logUsage(query: UsageQuery): Promise<GroupedUsageRow[]> {
    let select = this.db.selectFrom('request_logs').select((eb) => [
      'key_id',
      'model',
      'channel_id',
      'team_id',
      'user_id',
      // A refund row moves money, not a request (as in the sums).
      sql<number>`SUM(CASE WHEN request_id LIKE 'refund:%' THEN 0 ELSE 1 END)`.as('requests'),
      eb.fn.sum('input_tokens').as('input_tokens'),
      eb.fn.sum('output_tokens').as('output_tokens'),
      eb.fn.sum('cache_read_tokens').as('cache_read_tokens'),
      eb.fn.sum('cache_write_tokens').as('cache_write_tokens'),
      eb.fn.sum('cache_write_1h_tokens').as('cache_write_1h_tokens'),
      eb.fn.sum('cost').as('cost'),
      ...upstreamCostSums,
      eb.fn.sum('unpriced').as('unpriced_requests'),
    ]);
    if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
    if (query.teamId !== undefined) select = select.where('team_id', '=', query.teamId);
    if (query.teamIds !== undefined) select = select.where(inTeams(query.teamIds));
    if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
    if (query.since !== undefined) select = select.where('created_at', '>=', query.since);
    if (query.until !== undefined) select = select.where('created_at', '<', query.until);
    const rows = await select.groupBy(['key_id', 'model', 'channel_id', 'team_id', 'user_id']).execute();
    return rows.map(toSummary);
  }
}
