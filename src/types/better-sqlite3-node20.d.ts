/** better-sqlite3 12 under the alias package.json gives it (Node 20 only, src/storage/sqlite-driver.ts): typed as 13, whose API it shares. */
declare module 'better-sqlite3-node20' {
  import Database from 'better-sqlite3';
  export = Database;
}
