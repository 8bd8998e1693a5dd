import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import SkippedPostgresReporter from '../helpers/skipped-postgres-reporter.js';

/** A finished test module as the reporter reads it: test names and their states. */
const moduleOf = (tests: Array<[string, string]>) =>
  ({
    children: { allTests: () => tests.map(([fullName, state]) => ({ fullName, result: () => ({ state }) })) },
  }) as unknown as TestModule;

describe('the skipped-PostgreSQL note of `npm test`', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('says once why PostgreSQL tests were skipped and how to run them', () => {
    vi.stubEnv('FACET_TEST_DATABASE_URL', '');
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    new SkippedPostgresReporter().onTestRunEnd([
      moduleOf([
        ['store [postgres] — skipped: … > runs on PostgreSQL', 'skipped'],
        ['store [sqlite] > keeps a record', 'passed'],
      ]),
      moduleOf([['upgrade > on PostgreSQL', 'skipped']]),
    ]);
    const said = write.mock.calls.map((c) => String(c[0])).join('');
    write.mockRestore();
    expect(said.match(/skipped: FACET_TEST_DATABASE_URL is not set/g)).toHaveLength(1);
    expect(said).toMatch(/^\n2 PostgreSQL tests were skipped/);
    expect(said).toContain('scripts/test-postgres.sh');
  });

  it('says nothing when none were skipped', () => {
    vi.stubEnv('FACET_TEST_DATABASE_URL', '');
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    new SkippedPostgresReporter().onTestRunEnd([moduleOf([['store [sqlite] > keeps a record', 'passed']])]);
    const calls = write.mock.calls.length;
    write.mockRestore();
    expect(calls).toBe(0);
  });
});
