import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end files each start their own server and spend most of their time waiting on it (and
    // on outages and drains they stage): three files at a time keep two cores busy.
    maxWorkers: 3,
    env: { FACET_VALIDATE_RESPONSES: '1' },
    // The default output, and once at the end why PostgreSQL tests were skipped (if they were).
    reporters: ['default', './test/helpers/skipped-postgres-reporter.ts'],
  },
});
