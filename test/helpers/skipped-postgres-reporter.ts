import type { Reporter, TestModule } from 'vitest/node';

/**
 * Says once, at the end of a run, why the PostgreSQL tests were skipped and how to run them:
 * without it a run without FACET_TEST_DATABASE_URL shows only a count of skipped tests. (Under
 * CI=true they fail instead: test/helpers/postgres.ts.)
 */
export default class SkippedPostgresReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (process.env.FACET_TEST_DATABASE_URL) return;
    let skipped = 0;
    for (const module of testModules)
      for (const test of module.children.allTests())
        if (test.result().state === 'skipped' && /postgres/i.test(test.fullName)) skipped++;
    if (skipped === 0) return;
    process.stderr.write(
      `\n${skipped} PostgreSQL test${skipped === 1 ? ' was' : 's were'} skipped: FACET_TEST_DATABASE_URL is not set.\n` +
        'Run them with scripts/test-postgres.sh (a throwaway PostgreSQL), or set FACET_TEST_DATABASE_URL to a\n' +
        'server where the tests may create and drop databases (postgres://user:pass@host/postgres).\n',
    );
  }
}
