import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { MULTI_PROCESS_SUITES } from './vitest.multi.config.js';

// Vitest runs one worker per core but one (a single worker on a two-core
// machine). Most of this suite waits on sockets, child gateways, PostgreSQL and
// Redis rather than computing: on two cores three workers kept them 1.45 busy
// (655 s), so at least four run.
const workers = Math.max(availableParallelism() - 1, 4);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fuzz suite (`npm run test:fuzz`, vitest.fuzz.config.ts) and the multi-process suites
    // (`npm run test:multi`, vitest.multi.config.ts) run on their own, as CI does after `npm test`.
    exclude: ['test/fuzz/**', ...MULTI_PROCESS_SUITES, '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    // A worker keeps its modules from one file to the next instead of importing
    // the gateway, the SDKs and the schemas again for each: importing was most
    // of the workers' time (1,100 s of 2,000 s under load), and every file here
    // leaves the process as it found it (its servers closed, its timers real, no
    // environment written). A file that needs a fresh module graph goes in a
    // project of its own with `isolate: true`.
    isolate: false,
    // What a file faked (timers, Date) or stubbed is undone when it ends.
    setupFiles: ['./test/support/file-hygiene.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
