/**
 * Run as its own process by sqlite-driver.test.ts (`node --expose-gc --import tsx`):
 * opens the store as the gateway does on the data directory given, runs far
 * more distinct statements than the statement cache keeps (each eviction
 * drops a compiled statement), asks V8 for a full collection that finishes
 * outside JavaScript, waits for it, and prints `survived`. With better-sqlite3
 * 12 on Node 24.19+ the collected statements abort the process instead.
 */
import { sql } from 'kysely';
import { openStore } from '../../src/storage/open.js';

const store = await openStore({ dataDir: process.argv[2] });
await store.keys.list();
for (let i = 0; i < 2000; i++) await sql`select ${sql.raw(String(i))} as n`.execute(store.db);
(globalThis as { gc?: (options: object) => void }).gc?.({ type: 'major', execution: 'async' });
await new Promise((resolve) => setTimeout(resolve, 1000));
await store.close();
process.stdout.write('survived\n');
