/**
 * Which better-sqlite3 opens SQLite files, chosen by the running Node: 13
 * (Node-API, its addon prebuilt inside the package) from Node 22, 12 on
 * Node 20. 12's addon is built on V8's API and its statements wrap Node's
 * `ObjectWrap`, whose destructor on Node 24.19+ requires a current
 * Environment: a statement collected outside a JavaScript context (the
 * statement cache evicts them) aborted the process. 13's prebuilt addon
 * crashes at load on Node 20, and 13 declares Node 22. docs/decisions.md
 * ("SQLite binding by Node version").
 *
 * The driver's JavaScript is bundled (so it runs from the code cache), so its
 * own search for the addon, which starts from its file, would look in the
 * bundle's folder: the addon is handed to it (`nativeBinding`) from the
 * package's folder in node_modules.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import SqliteDatabaseNode20 from 'better-sqlite3-node20';

/** The package names in package.json: better-sqlite3 13, and 12 under an alias. */
export type SqliteDriver = 'better-sqlite3' | 'better-sqlite3-node20';

const requireFromHere = createRequire(import.meta.url);

/** The driver for a Node version such as `process.versions.node` ("20.18.1", "v24.19.0"). */
export function sqliteDriverFor(nodeVersion: string): SqliteDriver {
  const major = Number(/^v?(\d+)\./.exec(nodeVersion)?.[1]);
  return major < 22 ? 'better-sqlite3-node20' : 'better-sqlite3';
}

/** The driver this process uses. */
export const sqliteDriver: SqliteDriver = sqliteDriverFor(process.versions.node);

function packageFolder(driver: SqliteDriver): string {
  return dirname(requireFromHere.resolve(`${driver}/package.json`));
}

/** Opens (or creates) the SQLite file at `path` with this Node's driver. */
export function openSqliteFile(path: string): SqliteDatabase.Database {
  if (sqliteDriver === 'better-sqlite3-node20') {
    // 12 loads an addon by path; its install (scripts/install-sqlite-node20.mjs) puts it in build/Release.
    const addon = join(packageFolder(sqliteDriver), 'build', 'Release', 'better_sqlite3.node');
    return new SqliteDatabaseNode20(path, { nativeBinding: addon });
  }
  return new SqliteDatabase(path, { nativeBinding: driver13AddonPath() });
}

/**
 * 13's addon, where the package's own loader takes it from: one compiled on purpose
 * (build/Release), else the prebuilt one for this platform and C library (its
 * `getPrebuildPath`, musl detection included).
 */
function driver13AddonPath(): string {
  const folder = packageFolder('better-sqlite3');
  const compiled = join(folder, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(compiled)) return compiled;
  const binding = requireFromHere(join(folder, 'lib', 'binding.js')) as { getPrebuildPath(): string | null };
  return binding.getPrebuildPath() ?? compiled;
}
