import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Vitest runs one worker per core but one (a single worker on a two-core
// machine). Most of this suite waits on sockets, child gateways, PostgreSQL and
// Redis rather than computing: on two cores three workers kept them 1.45 busy
// (655 s), so at least four run.
const workers = Math.max(availableParallelism() - 1, 4);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fuzz suite runs on its own (`npm run test:fuzz`, vitest.fuzz.config.ts), as CI does after `npm test`.
    exclude: ['test/fuzz/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
