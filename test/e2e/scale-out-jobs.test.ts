import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 15: the job queue of three `facet serve` processes on one PostgreSQL. Tasks created through
 * any instance run on whichever claims them; one instance killed with SIGKILL while it runs tasks
 * loses them only until their leases expire, when the others take them over: every task ends once.
 */
describePostgres('the job queue of three instances, one killed mid-run', () => {
  const platforms: Platform[] = [];
  afterAll(async () => {
    for (const p of platforms) await p.cleanup();
    await dropTestDatabases();
  });

  it('30 tasks created across the three all succeed exactly once, none left running, after kill -9 of one', async () => {
    const url = await createTestDatabase();
    const files = tempDir('shared-files');
    for (let i = 0; i < 3; i++)
      platforms.push(
        await startPlatform({ databaseUrl: url, args: ['--workers', '2', '--job-lease', '3', '--files-dir', files] }),
      );
    const [a, b, c] = platforms;
    const create = async (p: Platform, i: number) => {
      const form = new FormData();
      form.append('kind', 'illustration');
      form.append('prompt', `Harbour light number ${i}`);
      form.append('size', '1024x1024');
      form.append('count', '1');
      const r = await p.fetch('/tasks', {
        method: 'POST',
        headers: { authorization: `Bearer ${p.boot.access_token}` },
        body: form,
      });
      expect(r.status).toBe(202);
      return ((await r.json()) as { id: string }).id;
    };
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await create([a, b, c][i % 3], i));
    expect(new Set(ids).size).toBe(30);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const runningOn = async (p: Platform) =>
        Number(
          (
            await db.query(`SELECT count(*) AS n FROM jobs WHERE state = 'running' AND lease_owner LIKE $1`, [
              `%:${p.pid}:%`,
            ])
          ).rows[0].n,
        );
      const deadline = Date.now() + 60_000;
      while ((await runningOn(c)) === 0) {
        if (Date.now() > deadline) throw new Error('instance C never ran a task');
        await new Promise((r) => setTimeout(r, 20));
      }
      await c.kill();

      const ended = async () =>
        (
          await db.query(
            `SELECT id, state, (SELECT count(*) FROM job_logs l WHERE l.job_id = j.id AND l.line = 'succeeded') AS successes, (SELECT count(*) FROM job_logs l WHERE l.job_id = j.id AND l.line LIKE 'recovered:%') AS recoveries FROM jobs j WHERE id IN (SELECT job_id FROM tasks WHERE id = ANY($1))`,
            [ids],
          )
        ).rows;
      let rows = await ended();
      const until = Date.now() + 120_000;
      while (rows.some((r) => r.state === 'queued' || r.state === 'running')) {
        if (Date.now() > until)
          throw new Error(`still not ended: ${JSON.stringify(rows.filter((r) => r.state !== 'succeeded'))}`);
        await new Promise((r) => setTimeout(r, 200));
        rows = await ended();
      }
      expect(rows).toHaveLength(30);
      for (const r of rows) {
        expect(r.state, r.id).toBe('succeeded');
        expect(Number(r.successes), r.id).toBe(1);
      }
      // At least one was taken over from the killed instance after its lease expired.
      expect(rows.reduce((n, r) => n + Number(r.recoveries), 0)).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    // The survivors answer for every task, whichever instance ran it.
    for (const id of ids.slice(0, 5)) {
      const r = await b.fetch(`/tasks/${id}`, { headers: { authorization: `Bearer ${b.boot.access_token}` } });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { status: string }).status).toBe('succeeded');
    }
  }, 240_000);
});
