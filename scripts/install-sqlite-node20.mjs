/**
 * The install step of better-sqlite3 12 (package.json's `better-sqlite3-node20`),
 * run by `npm install`/`npm ci` (this package's `install` script) on Node 20
 * only: fetch its prebuilt addon, else compile it. Node 22 and later use
 * better-sqlite3 13, whose addon ships inside its package, so there 12 stays
 * unbuilt (package.json's allowScripts denies npm's own run of its script;
 * npm 10, which ignores allowScripts, still runs it, harmlessly).
 * src/storage/sqlite-driver.ts picks the driver; docs/decisions.md says why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 22) process.exit(0);

const folder = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3-node20/package.json'));
// Built already (npm 10 ran the package's own script, or an earlier install did).
if (existsSync(path.join(folder, 'build', 'Release', 'better_sqlite3.node'))) process.exit(0);

// The package's own install script (prebuild-install, else node-gyp), with npm's PATH for its tools.
const result = spawnSync('npm', ['run', 'install'], { cwd: folder, stdio: 'inherit' });
process.exit(result.status ?? 1);
