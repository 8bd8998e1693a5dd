import { afterAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 26: three instances started at once on an empty PostgreSQL. Each becomes ready and runs
 * jobs, or exits non-zero: never one that listens, answers /healthz and runs nothing. The first
 * admin is made once, under the migrations' kind of lock; the others find and use it.
 */
/** Three rounds in the suite (each round is three PostgreSQL starts); FACET_CONCURRENT_START_ROUNDS=20 for the twenty. */
const ROUNDS = Number(process.env.FACET_CONCURRENT_START_ROUNDS ?? 3);

describePostgres('instances starting together on an empty database', () => {
  afterAll(() => dropTestDatabases());

  it(
    `${ROUNDS} rounds of three: every instance becomes ready, one admin is made, and each runs jobs`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const url = await createTestDatabase();
        const files = tempDir('shared-files');
        const started = await Promise.allSettled(
          [0, 1, 2].map(() => startPlatform({ databaseUrl: url, args: ['--files-dir', files] })),
        );
        const up = started
          .filter((s): s is PromiseFulfilledResult<Platform> => s.status === 'fulfilled')
          .map((s) => s.value);
        try {
          // A start that fails exits (startPlatform rejects when the process ends); with the lock none does.
          expect(
            started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason)),
            `round ${round}`,
          ).toEqual([]);
          for (const p of up) expect((await p.fetch('/readyz')).status, `round ${round}`).toBe(200);
          // One admin made: exactly one instance's data dir received its API key.
          expect(up.filter((p) => p.boot.api_key).length, `round ${round}`).toBe(1);
          expect(new Set(up.map((p) => p.boot.user_id)).size).toBe(1);
          if (round === 0) {
            // Each instance's workers run a task (the queue is shared, so each is asked in turn).
            const key = up.find((p) => p.boot.api_key)!.boot.api_key!;
            for (const p of up) {
              const r = await p.cli(
                [
                  'tasks',
                  'create',
                  '--kind',
                  'illustration',
                  '--prompt',
                  'a lighthouse',
                  '--size',
                  '64x64',
                  '--wait',
                  '--json',
                ],
                { env: { FACET_BASE_URL: p.url, FACET_API_KEY: key } },
              );
              expect(r.exitCode, r.stderr).toBe(0);
              expect(JSON.parse(r.stdout).status).toBe('succeeded');
            }
          }
        } finally {
          await Promise.all(up.map((p) => p.stop()));
          up.forEach((p) => p.cleanup());
        }
      }
    },
    60_000 * ROUNDS,
  );
});
