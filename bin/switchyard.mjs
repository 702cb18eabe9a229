#!/usr/bin/env node
// The `switchyard` command (package.json `bin`): the admin CLI through the same
// launcher as `npm run cli`, so it rebuilds a bundle older than the sources
// instead of running stale code after a `git pull`.
process.argv.splice(2, 0, 'cli');
await import('../scripts/launch.mjs');
