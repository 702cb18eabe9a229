#!/usr/bin/env node
/**
 * The admin CLI, run through scripts/launch.mjs by `npm run cli -- <command>`
 * and by the `switchyard` command (bin/switchyard.mjs, e.g. `npx switchyard`).
 * The commands live in run.ts; this file only turns a failure into a
 * message on stderr and exit code 1.
 */
import { runCli } from './run.js';

runCli(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`switchyard: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
