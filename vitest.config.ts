import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end files each start their own server; two cores run two files at a time.
    maxWorkers: 2,
    env: { FACET_VALIDATE_RESPONSES: '1' },
    // The default output, and once at the end why PostgreSQL tests were skipped (if they were).
    reporters: ['default', './test/helpers/skipped-postgres-reporter.ts'],
  },
});
