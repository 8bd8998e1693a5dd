import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that run several instances and time what they see (a rolling restart, scale-out, outages,
 * drains): they run after the rest, two at a time, so a busy machine's other files do not starve
 * the instances, balancers and object stores they start (a stall there is a failed request).
 */
const FLEET = [
  'test/e2e/rolling-restart.test.ts',
  'test/e2e/scale-out*.test.ts',
  'test/e2e/audit-scale-out.test.ts',
  'test/e2e/concurrent-start.test.ts',
  'test/e2e/*outage*.test.ts',
  'test/e2e/drain*.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { FACET_VALIDATE_RESPONSES: '1' },
    // The default output, and once at the end why PostgreSQL tests were skipped (if they were).
    reporters: ['default', './test/helpers/skipped-postgres-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...FLEET],
          // End-to-end files each start their own server and spend most of their time waiting on it
          // (and on outages and drains they stage): three files at a time keep two cores busy.
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'fleet', include: FLEET, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
