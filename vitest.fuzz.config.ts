import { defineConfig } from 'vitest/config';

/** The seeded fuzz suite alone (`npm run test:fuzz`): every route of every family and the admin API, both engines. */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
