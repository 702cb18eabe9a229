/**
 * `npx tsx scripts/fresh-sqlite-schema.ts`: runs every migration on an empty
 * SQLite database and writes the schema it leaves to
 * src/storage/migrations/fresh-sqlite-schema.ts, which a new database gets in
 * one transaction (fresh-sqlite.ts). Run it after adding or changing a
 * migration; test/storage/fresh-sqlite.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migratedSqliteSchema } from './migrated-sqlite.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = 'src/storage/migrations/fresh-sqlite-schema.ts';
const { statements, migrationNames } = await migratedSqliteSchema();
const text = `/**
 * Written by scripts/fresh-sqlite-schema.ts; do not edit. The schema every
 * migration below leaves on SQLite, as SQLite records it, in creation order
 * (the migrator's own tables first). See fresh-sqlite.ts.
 */
export const FRESH_SQLITE_MIGRATIONS: readonly string[] = [
${migrationNames.map((name) => `  '${name}',`).join('\n')}
];

export const FRESH_SQLITE_SCHEMA: readonly string[] = [
${statements.map((statement) => `  ${JSON.stringify(statement)},`).join('\n')}
];
`;
writeFileSync(path.join(root, target), text);
process.stdout.write(`wrote ${target} (${statements.length} statements)\n`);
