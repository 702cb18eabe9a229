/**
 * What writing the request log costs SQLite, per row, and what each of the
 * log's indexes adds to it: batches of 256 rows shaped as the translated
 * Messages path writes them (one key, model and channel; status 200), each
 * through the repository's insertMany (the log rows and the usage sums in
 * one transaction), over a log that already holds BENCH_LOG_INSERT_BASE rows.
 * Variants drop indexes before the timed batches; they alternate round by
 * round, each on a fresh file, medians over the rounds.
 *
 *   npm run build && node bench/log-insert.mjs [--rounds 5] [--batches 200] [--base 100000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyRequestLogRepository } from '../dist/src/storage/logs.js';
import { createFreshSqliteSchema } from '../dist/src/storage/migrations/fresh-sqlite.js';
import { openSqliteFile } from '../dist/src/storage/sqlite-driver.js';
import { withStatementCache } from '../dist/src/storage/sqlite-statement-cache.js';
import { requestLogRow } from '../dist/src/billing/log-row.js';
import { median } from './lib/report.mjs';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}
const rounds = option('rounds', 5);
const batches = option('batches', 200);
const base = option('base', 100_000);
const BATCH = 256;

/** The indexes migration 0020 replaced (the status index; the team and user ones, which held every row). */
const before0020 = {
  drop: ['request_logs_team_created', 'request_logs_user_created'],
  add: [
    'CREATE INDEX "request_logs_status_created" on "request_logs" ("http_status", "created_at")',
    'CREATE INDEX "request_logs_team_created" on "request_logs" ("team_id", "created_at")',
    'CREATE INDEX "request_logs_user_created" on "request_logs" ("user_id", "created_at")',
  ],
};

/** Each variant: the indexes it drops and creates (none: as migrated). Extra variants from BENCH_LOG_INSERT_DROP (`a+b,c`). */
const variants = [
  ['as migrated', { drop: [], add: [] }],
  ['as before migration 0020', before0020],
  ['no indexes but the primary key', { drop: 'all', add: [] }],
  ...(process.env.BENCH_LOG_INSERT_DROP ?? '')
    .split(',')
    .filter(Boolean)
    .map((list) => [`without ${list}`, { drop: list.split('+'), add: [] }]),
];

function row(now, i) {
  return requestLogRow(
    {
      requestId: `req_${now}_${i}`,
      keyId: 'key_bench0000000000000000',
      teamId: null,
      userId: null,
      family: 'messages',
      model: 'translated-model',
      upstreamModel: 'gpt-4o-mini',
      channelId: 'chan_oai',
      httpStatus: 200,
      errorKind: null,
      errorMessage: null,
      stream: false,
      inputTokens: 12,
      outputTokens: 9,
      cost: 0.00001,
      clientIp: '127.0.0.1',
      translation: null,
      attempts: [{ channel: 'oai', channelId: 'chan_oai', at: now - 2, durationMs: 1.2, status: 200, errorKind: null, message: null }],
      startedAt: now - 2,
    },
    now,
  );
}

async function measure({ drop, add }) {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-log-insert-'));
  const file = openSqliteFile(join(dir, 'bench.db'));
  try {
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = NORMAL');
    file.pragma('cache_size = -2048');
    createFreshSqliteSchema(file);
    const indexes = file.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'request_logs' and sql is not null").pluck().all();
    for (const name of drop === 'all' ? indexes : drop) file.exec(`drop index "${name}"`);
    for (const statement of add) file.exec(statement);
    const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
    const logs = new KyselyRequestLogRepository(db);
    let now = Date.now() - 86_400_000;
    const batch = () => Array.from({ length: BATCH }, (_, i) => row((now += 1), i));
    for (let done = 0; done < base; done += BATCH) await logs.insertMany(batch());
    const times = [];
    for (let i = 0; i < batches; i++) {
      const rows = batch();
      // CPU time, not wall time: the machine is shared, and a neighbour's load stretches wall time only.
      const start = process.cpuUsage();
      await logs.insertMany(rows);
      const used = process.cpuUsage(start);
      times.push((used.user + used.system) / 1000);
    }
    await db.destroy();
    return (median(times) * 1000) / BATCH;
  } finally {
    try {
      file.close();
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = new Map(variants.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? variants : [...variants].reverse();
  for (const [name, drop] of order) results.get(name).push(await measure(drop));
}
console.log(`CPU µs per log row (batches of ${BATCH}, median batch of ${batches}, over ${base} rows; median of ${rounds} rounds, range)`);
for (const [name, values] of results) console.log(`${name.padEnd(60)} ${median(values).toFixed(2)}  (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`);
