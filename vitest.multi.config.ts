import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The multi-process suites (`npm run test:multi`), kept out of `npm test` so the
 * main suite stays within ten minutes on two cores; CI runs them right after it.
 * Each starts gateways as processes of their own (the bundle, the launcher, the
 * CLI), several instances on one database or Redis, or stops and restarts one
 * with work in flight, and mostly waits: on leases to lapse, grace periods to
 * end, instances to notice each other. One memory-bound suite joins them, since
 * it reads the process's memory and is best with fewer neighbours.
 */
export const MULTI_PROCESS_SUITES = [
  'test/e2e/operations.test.ts',
  'test/e2e/shutdown-streams.test.ts',
  'test/e2e/secret-key.test.ts',
  'test/e2e/images-restart.test.ts',
  'test/e2e/videos-restart.test.ts',
  'test/e2e/batches-two-instances.test.ts',
  'test/e2e/images-two-instances.test.ts',
  'test/e2e/videos-two-instances.test.ts',
  'test/e2e/cluster-start.test.ts',
  'test/e2e/budgets-instances.test.ts',
  'test/e2e/quota-instances.test.ts',
  'test/e2e/prices-instances.test.ts',
  'test/e2e/change-notifications.test.ts',
  'test/e2e/redis-outage.test.ts',
  'test/e2e/start-bundle.test.ts',
  'test/e2e/start-bundle-redis.test.ts',
  'test/e2e/start-bundle-traces.test.ts',
  'test/e2e/start-launcher.test.ts',
  'test/e2e/start-settings.test.ts',
  'test/examples/examples.test.ts',
  'test/storage/sqlite-concurrent-migrate.test.ts',
  'test/upstreams/faults/oversized-memory.test.ts',
];

export default defineConfig({
  test: {
    include: MULTI_PROCESS_SUITES,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // As in the main suite: the files wait far more than they compute.
    maxWorkers: Math.max(availableParallelism() - 1, 4),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
