import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 26: after an instance dies (kill -9), the jobs it ran run again on another within their
 * lease and a few seconds (`--job-lease 10`: within 15 s), and keep their place in the queue.
 */
describePostgres('take-over of a dead instance’s jobs', () => {
  const platforms: Platform[] = [];
  afterAll(async () => {
    for (const p of platforms) p.cleanup();
    await dropTestDatabases();
  });

  it('an orphan is queued again within the lease plus a few seconds, at its old place', async () => {
    const url = await createTestDatabase();
    const files = tempDir('shared-files');
    const args = ['--workers', '1', '--job-lease', '10', '--files-dir', files];
    const a = await startPlatform({ databaseUrl: url, args });
    const b = await startPlatform({ databaseUrl: url, args });
    platforms.push(a, b);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const create = async (i: number) => {
        const form = new FormData();
        form.append('kind', 'illustration');
        form.append('prompt', `Lighthouse number ${i}`);
        form.append('size', '1024x1024');
        form.append('count', '2');
        const r = await a.fetch('/tasks', {
          method: 'POST',
          headers: { authorization: `Bearer ${a.boot.access_token}` },
          body: form,
        });
        expect(r.status).toBe(202);
      };
      for (let i = 0; i < 12; i++) await create(i);
      let orphan: { id: string; run_after: string } | undefined;
      const deadline = Date.now() + 60_000;
      while (!orphan) {
        if (Date.now() > deadline) throw new Error('instance A never ran a task');
        orphan = (
          await db.query(`SELECT id, run_after FROM jobs WHERE state = 'running' AND lease_owner LIKE $1`, [
            `%:${a.pid}:%`,
          ])
        ).rows[0];
        if (!orphan) await new Promise((r) => setTimeout(r, 20));
      }
      await a.kill();
      const killedAt = Date.now();
      let recoveredAt: number | undefined;
      while (recoveredAt === undefined) {
        const seen = (
          await db.query(`SELECT 1 FROM job_logs WHERE job_id = $1 AND line LIKE 'recovered:%'`, [orphan.id])
        ).rowCount;
        if (seen) recoveredAt = Date.now();
        else if (Date.now() - killedAt > 30_000) throw new Error('the orphan was not recovered within 30 s');
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(recoveredAt - killedAt).toBeLessThan(15_000);
      // Its place in the queue is the one it had: run_after unchanged, ahead of every later task.
      const after = (await db.query(`SELECT run_after FROM jobs WHERE id = $1`, [orphan.id])).rows[0];
      expect(after.run_after).toEqual(orphan.run_after);
      const until = Date.now() + 120_000;
      while (
        Number((await db.query(`SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')`)).rows[0].n) > 0
      ) {
        if (Date.now() > until) throw new Error('tasks still not ended');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(Number((await db.query(`SELECT count(*) AS n FROM jobs WHERE state <> 'succeeded'`)).rows[0].n)).toBe(0);
    } finally {
      await db.end();
    }
  }, 240_000);
});
