/**
 * What `npm start` and `npm run cli` run: the bundled gateway (or CLI), built
 * again first when anything it is built from is newer than the bundle, so a
 * `git pull` never leaves them running old code (nor an old web console). The
 * bundle is imported into this same process (no child), so SIGTERM and SIGINT
 * reach the gateway; the npm scripts use `exec` so the shell npm starts does
 * not stay in between.
 *
 *   node scripts/launch.mjs main [args]   the gateway
 *   node scripts/launch.mjs cli [args]    the admin CLI
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
if (entry !== 'main' && entry !== 'cli') {
  process.stderr.write('usage: node scripts/launch.mjs main|cli [args]\n');
  process.exit(2);
}
// The entry's own arguments start where they would if it were run directly.
process.argv.splice(2, 1);

const bundle = path.join(root, 'dist', 'bundle', `${entry}.js`);
/** What the bundle is built from: the sources, the bundler script, the locked dependencies. */
const inputs = [path.join(root, 'src'), path.join(root, 'scripts', 'bundle.mjs'), path.join(root, 'scripts', 'gateway-loader.mjs'), path.join(root, 'package-lock.json')];

function newestChange(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its directory
  for (const name of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, name)));
  return newest;
}

const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built < Math.max(...inputs.map(newestChange))) {
  process.stderr.write(`switchyard: ${built ? 'sources changed since the last build' : 'no build yet'}; bundling (node scripts/bundle.mjs)\n`);
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write('switchyard: the bundle could not be built; refusing to run old code (run `npm run build` to see why)\n');
    process.exit(1);
  }
}

// The web console, rebuilt the same way when its sources changed (where they exist: a checkout, not the image).
// A console that fails to build does not keep the gateway from starting; /console then serves the last build.
const consoleSources = path.join(root, 'console');
if (entry === 'main' && statSync(consoleSources, { throwIfNoEntry: false })) {
  const consoleBuilt = statSync(path.join(root, 'dist', 'console', 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const consoleInputs = [consoleSources, path.join(root, 'scripts', 'bundle-console.mjs'), path.join(root, 'package-lock.json')];
  if (consoleBuilt < Math.max(...consoleInputs.map(newestChange))) {
    process.stderr.write('switchyard: the console changed since the last build; building it (node scripts/bundle-console.mjs)\n');
    const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle-console.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) process.stderr.write('switchyard: the console could not be built (run `npm run build` to see why); starting without the new one\n');
  }
}

await import(pathToFileURL(bundle).href);
