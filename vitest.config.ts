import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fuzz suite runs on its own (`npm run test:fuzz`, vitest.fuzz.config.ts), as CI does after `npm test`.
    exclude: ['test/fuzz/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
