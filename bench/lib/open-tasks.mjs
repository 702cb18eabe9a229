/**
 * The image-task target of issue 37 inside `npm run bench`: runs
 * `tasks-throughput.mjs` (10,000 open tasks, fetches at c=50, on SQLite and
 * on PostgreSQL when the test database answers) as a child, with a shorter
 * idle and drain phase than when run alone, the gateway under the same
 * BENCH_NODE, and returns each engine's fetch figures. A failure is
 * reported, not thrown: the rest of the run stands.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'tasks-throughput.mjs');

export async function measureOpenTasks({ scriptDir, log }) {
  const jsonFile = join(scriptDir, 'open-tasks.json');
  log('open image tasks: tasks-throughput.mjs (10,000 open, fetch at c=50)');
  const env = {
    ...process.env,
    BENCH_TASKS_JSON: jsonFile,
    BENCH_TASKS_IDLE_S: process.env.BENCH_TASKS_IDLE_S ?? '3',
    BENCH_TASKS_DRAIN: process.env.BENCH_TASKS_DRAIN ?? '200',
    BENCH_TASKS_READS: process.env.BENCH_TASKS_READS ?? '1000',
  };
  try {
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'inherit'], env });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tasks-throughput.mjs exited with ${code}`))));
    });
    const rows = JSON.parse(readFileSync(jsonFile, 'utf8'));
    return rows.map((row) => ({
      label: row.label,
      fetch: { rps: row.fetch.rps, p50Ms: row.fetch.p50Ms, p99Ms: row.fetch.p99Ms, cpuUsPerRequest: row.fetch.cpuUsPerRequest },
      paced: row.fetchPaced.map(({ share, rps, p50Ms, p99Ms }) => ({ share, rps, p50Ms, p99Ms })),
    }));
  } catch (error) {
    log(`open image tasks not measured: ${error.message}`);
    return { error: error.message };
  }
}
