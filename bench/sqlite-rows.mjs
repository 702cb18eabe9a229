/**
 * Reading task rows from SQLite: better-sqlite3's own object rows against the
 * raw arrays built into objects by the gateway's statement cache
 * (src/storage/sqlite-statement-cache.ts). 10,000 task rows shaped as the
 * tasks bench makes them; one row by id, 50 rows by id, and a claim-sized
 * UPDATE … RETURNING *. Prints µs per row, medians of 5 rounds.
 *
 *   npm run build && node bench/sqlite-rows.mjs
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFreshSqliteSchema } from '../dist/src/storage/migrations/fresh-sqlite.js';
import { openSqliteFile } from '../dist/src/storage/sqlite-driver.js';
import { withObjectRows } from '../dist/src/storage/sqlite-statement-cache.js';
import { median } from './lib/report.mjs';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-sqlite-rows-'));
try {
  const db = openSqliteFile(join(dir, 'bench.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -2048');
  createFreshSqliteSchema(db);
  const now = Date.now();
  const columns =
    'id,family,action,key_id,channel_id,account_id,account,upstream_id,upstream_data,status,progress,request,billing,cost,version,submit_time,timeout_at,created_at,updated_at,next_poll_at';
  const insert = db.prepare(
    `insert into tasks (${columns}) values (${columns
      .split(',')
      .map(() => '?')
      .join(',')})`,
  );
  const request = JSON.stringify({ prompt: 'a lighthouse on a cliff at dusk, oil painting', botType: 'MID_JOURNEY', base64Array: [], state: 'bench', publicBase: 'http://127.0.0.1:8080' });
  const ids = [];
  db.transaction(() => {
    for (let i = 0; i < 10_000; i++) {
      const id = `task_${now.toString(36)}${String(i).padStart(6, '0')}`;
      ids.push(id);
      insert.run(
        id,
        'images',
        'IMAGINE',
        'key_1',
        'ch_long',
        'long',
        '{"instanceId":"long"}',
        `up_${i}`,
        '{"startAt":1}',
        'SUBMITTED',
        0,
        request,
        'charged',
        0.01,
        1,
        now,
        now + 3_600_000,
        now,
        now,
        now + i,
      );
    }
  })();
  const fifty = ids.slice(5000, 5050);
  const inList = fifty.map(() => '?').join(',');
  const cases = {
    'one row by id': ['select * from tasks where id = ?', (i) => [ids[(i * 7919) % ids.length]], 1],
    '50 rows by id': [`select * from tasks where id in (${inList})`, () => fifty, 50],
    '50 rows, UPDATE … RETURNING *': [`update tasks set lease_until = ? where id in (${inList}) returning *`, (i) => [i, ...fifty], 50],
  };
  const round = (statement, args, perCall) => {
    const calls = 2000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) statement.all(args(i));
    return Number(process.hrtime.bigint() - start) / 1000 / (calls * perCall);
  };
  for (const [name, [sql, args, perCall]] of Object.entries(cases)) {
    const driver = db.prepare(sql);
    const built = withObjectRows(db.prepare(sql));
    const times = { driver: [], built: [] };
    for (let r = 0; r < 5; r++) {
      times.driver.push(round(driver, args, perCall));
      times.built.push(round(built, args, perCall));
    }
    const d = median(times.driver);
    const b = median(times.built);
    process.stdout.write(`${name}: driver objects ${d.toFixed(1)} µs/row, raw arrays built here ${b.toFixed(1)} µs/row (${Math.round((1 - b / d) * 100)} % less)\n`);
  }
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
