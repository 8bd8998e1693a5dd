import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Store } from '../../../src/server/store/store.js';
import { JobFailure, JobQueue, type JobObserver, type JobOutcome } from '../../../src/server/jobs/queue.js';
import { ObjectStoreError } from '../../../src/server/files/file-store.js';
import type { JobLimits } from '../../../src/server/jobs/limits.js';
import { describeOnStores, dropTestDatabases, type StoreUnderTest } from '../../helpers/postgres.js';

const opened: Store[] = [];
const queues: JobQueue[] = [];

// The store the current describe block runs on (SQLite, or a fresh PostgreSQL database per store).
let stores: StoreUnderTest;

async function setup(
  options: {
    concurrency?: number;
    leaseMs?: number;
    recoverAll?: boolean;
    store?: Store;
    observer?: JobObserver;
    outageRequeueMs?: number;
    limits?: JobLimits;
  } = {},
) {
  const store = options.store ?? (await stores.open());
  if (!options.store) opened.push(store);
  const q = new JobQueue({
    db: store.db,
    now: () => new Date(),
    concurrency: options.concurrency ?? 2,
    leaseMs: options.leaseMs ?? 30_000,
    pollMs: 50,
    recoverAllRunningAtStart: options.recoverAll ?? false,
    observer: options.observer,
    outageRequeueMs: options.outageRequeueMs,
    limits: options.limits,
  });
  queues.push(q);
  return { store, q };
}

afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeOnStores('JobQueue', (underTest) => {
  beforeEach(() => {
    stores = underTest;
  });
  it('runs jobs to success with at most `concurrency` at once, and records their result', async () => {
    const { q } = await setup({ concurrency: 3 });
    let active = 0;
    let peak = 0;
    q.register<{ n: number }>('square', async (job) => {
      active++;
      peak = Math.max(peak, active);
      // Held until three run together (or 5 s pass): a busy database may claim the third late.
      for (let waited = 0; peak < 3 && waited < 5_000; waited += 20) await sleep(20);
      await sleep(20);
      active--;
      await job.log(`squared ${job.payload.n}`);
      return job.payload.n ** 2;
    });
    await q.start();
    const jobs = await Promise.all(Array.from({ length: 10 }, (_, n) => q.enqueue('square', { n })));
    const done = await Promise.all(jobs.map((j) => q.waitForEnd(j.id)));
    expect(done.every((j) => j.state === 'succeeded')).toBe(true);
    expect(done.map((j) => JSON.parse(j.result!))).toEqual(Array.from({ length: 10 }, (_, n) => n ** 2));
    expect(peak).toBe(3);
    expect((await q.logs(jobs[4].id)).map((l) => l.line)).toEqual([
      'queued',
      'attempt 1 of 3 started',
      'squared 4',
      'succeeded',
    ]);
  });

  it('never records a state change without its log line: a line that cannot be written leaves the job as it was', async () => {
    const { store, q } = await setup();
    // The store refuses the line that says a job succeeded, as a process killed between the two
    // writes would leave it unwritten.
    if (stores.dialect === 'sqlite')
      await sql`CREATE TRIGGER refuse_line BEFORE INSERT ON job_logs WHEN NEW.line = 'succeeded' BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(
        store.db,
      );
    else {
      await sql`CREATE FUNCTION refuse_line() RETURNS trigger AS $$ BEGIN IF NEW.line = 'succeeded' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(
        store.db,
      );
      await sql`CREATE TRIGGER refuse_line BEFORE INSERT ON job_logs FOR EACH ROW EXECUTE FUNCTION refuse_line()`.execute(
        store.db,
      );
    }
    let ran = false;
    q.register('quick', async () => {
      ran = true;
      return 'done';
    });
    await q.start();
    const job = await q.enqueue('quick', {});
    while (!ran) await sleep(10);
    await sleep(300);
    const row = await q.get(job.id);
    const lines = (await q.logs(job.id)).map((l) => l.line);
    expect(lines).not.toContain('succeeded');
    expect(row!.state).toBe('running');
  });

  it('puts a job whose store could not be reached back in the queue after a pause without using an attempt, and tells the observer', async () => {
    const outcomes: Array<[string, JobOutcome]> = [];
    const claims: number[] = [];
    const { q } = await setup({
      outageRequeueMs: 100,
      observer: { claimed: (_kind, ms) => claims.push(ms), finished: (kind, o) => outcomes.push([kind, o]) },
    });
    let runs = 0;
    // Five outages in a row, more than its 2 attempts: none of them counts.
    q.register(
      'publish',
      async () => {
        runs++;
        if (runs <= 5) throw new ObjectStoreError('the object store failed PUT k: ECONNREFUSED', { outage: true });
        return 'stored';
      },
      { maxAttempts: 2 },
    );
    await q.start();
    const job = await q.enqueue('publish', {});
    const done = await q.waitForEnd(job.id, 10_000);
    expect(done.state).toBe('succeeded');
    expect(done.attempts).toBe(1);
    expect(runs).toBe(6);
    expect(outcomes).toEqual([...Array.from({ length: 5 }, () => ['publish', 'deferred']), ['publish', 'succeeded']]);
    expect(claims).toHaveLength(6);
    const lines = (await q.logs(job.id)).map((l) => l.line);
    expect(lines.filter((l) => /back in the queue in \d+ ms \(this attempt is not counted\)/.test(l))).toHaveLength(5);
    // A refusal (not an outage) still uses up attempts.
    q.register(
      'refused',
      async () => {
        throw new ObjectStoreError('the object store failed PUT k: HTTP 403 AccessDenied');
      },
      { maxAttempts: 2, retryDelayMs: 10 },
    );
    const refused = await q.waitForEnd((await q.enqueue('refused', {})).id, 10_000);
    expect(refused.state).toBe('failed');
    expect(outcomes.slice(-2)).toEqual([
      ['refused', 'retried'],
      ['refused', 'failed'],
    ]);
  });

  it('stops within its wait when a handler ignores the abort, and hands that job back without using its attempt', async () => {
    const { store, q } = await setup();
    let started = false;
    // Deaf to its signal: like a storage call riding out an outage.
    q.register('deaf', async () => {
      started = true;
      await sleep(5_000);
      return 'late';
    });
    await q.start();
    const job = await q.enqueue('deaf', {});
    while (!started) await sleep(10);
    const t0 = Date.now();
    await q.stop(300);
    expect(Date.now() - t0).toBeLessThan(2_000);
    const after = (await q.get(job.id))!;
    expect(after).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null });
    const again = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      pollMs: 50,
      recoverAllRunningAtStart: false,
    });
    queues.push(again);
    again.register('deaf', async () => 'now');
    await again.start();
    expect((await again.waitForEnd(job.id, 5_000)).state).toBe('succeeded');
  });

  it('commits the lines a handler does not wait for in order, before its end; a line that cannot be written fails the run', async () => {
    const { q } = await setup({ concurrency: 1 });
    q.register('chatty', async (job) => {
      for (let i = 1; i <= 20; i++) void job.log(`line ${i}`);
      return 'ok';
    });
    q.register(
      'broken-log',
      async (job) => {
        // NOT NULL refuses it: the write fails after the handler has returned.
        void job.log(null as unknown as string);
        return 'ok';
      },
      { maxAttempts: 1 },
    );
    await q.start();
    const chatty = await q.enqueue('chatty', {});
    expect((await q.waitForEnd(chatty.id)).state).toBe('succeeded');
    const lines = (await q.logs(chatty.id)).map((l) => l.line);
    expect(lines).toEqual([
      'queued',
      'attempt 1 of 3 started',
      ...Array.from({ length: 20 }, (_, i) => `line ${i + 1}`),
      'succeeded',
    ]);
    const broken = await q.enqueue('broken-log', {});
    const ended = await q.waitForEnd(broken.id);
    expect(ended.state).toBe('failed');
    expect(ended.error).toMatch(/NOT NULL|null value/i);
  });

  it('hands a job enqueued as the queue stops back to the queue, with its whole attempt budget', async () => {
    const { store, q } = await setup({ concurrency: 1 });
    let ran = 0;
    q.register('work', async () => {
      ran++;
      return 'ok';
    });
    await q.start();
    await sleep(20);
    const enqueued = q.enqueue('work', {});
    const stopped = q.stop();
    const job = await enqueued;
    await stopped;
    expect(ran).toBe(0);
    const row = await store.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect([row.state, row.attempts]).toEqual(['queued', 0]);
    // The next start runs it with its whole budget.
    const again = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      pollMs: 50,
      recoverAllRunningAtStart: false,
    });
    queues.push(again);
    again.register('work', async () => 'ok');
    await again.start();
    const ended = await again.waitForEnd(job.id, 10_000);
    expect([ended.state, ended.attempts]).toEqual(['succeeded', 1]);
  });

  it('retries transient failures with backoff and fails permanent ones at once', async () => {
    const { q } = await setup();
    let calls = 0;
    q.register(
      'flaky',
      async () => {
        calls++;
        if (calls < 3) throw new Error(`boom ${calls}`);
        return 'ok';
      },
      { maxAttempts: 3, retryDelayMs: 10 },
    );
    q.register('bad', async () => {
      throw new JobFailure('no way');
    });
    await q.start();
    const flaky = await q.waitForEnd((await q.enqueue('flaky', {})).id);
    expect(flaky).toMatchObject({ state: 'succeeded', attempts: 3, error: null });
    const bad = await q.waitForEnd((await q.enqueue('bad', {})).id);
    expect(bad).toMatchObject({ state: 'failed', attempts: 1, error: 'no way' });
    const retried = await q.retry(bad.id);
    expect(retried?.outcome).toBe('requeued');
    expect(await q.waitForEnd(bad.id)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await q.retry(flaky.id))?.outcome).toBe('not-retryable');
  });

  it('a retry answers with the job as it requeued it, even when another instance claims it at once', async () => {
    const { store, q } = await setup();
    q.register('bad', async () => {
      throw new JobFailure('no way');
    });
    await q.start();
    const bad = await q.waitForEnd((await q.enqueue('bad', {})).id);
    await q.stop();
    const { claimNext } = await import('../../../src/server/jobs/jobs.repo.js');
    // Another instance polls the moment the retry commits: any later read of the row sees its claim.
    const read = q.get.bind(q);
    q.get = async (id) => {
      const row = await read(id);
      if (row?.state !== 'queued') return row;
      const at = new Date().toISOString();
      await claimNext(store.db, { kinds: ['bad'], owner: 'other', now: at, leaseExpiresAt: at });
      return read(id);
    };
    expect(await q.retry(bad.id)).toMatchObject({ outcome: 'requeued', job: { state: 'queued', attempts: 0 } });
  });

  it('cancels a running job through its AbortSignal, and a queued one at once', async () => {
    const { q } = await setup({ concurrency: 1 });
    let sawAbort = false;
    q.register(
      'wait',
      (job) =>
        new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(job.signal.reason);
          });
        }),
    );
    await q.start();
    const running = await q.enqueue('wait', {});
    const queued = await q.enqueue('wait', {});
    for (let i = 0; i < 100 && (await q.get(running.id))!.state !== 'running'; i++) await sleep(10);
    const c1 = await q.cancel(queued.id);
    expect(c1).toMatchObject({ outcome: 'canceled', job: { state: 'canceled' } });
    const c2 = await q.cancel(running.id);
    expect(c2).toMatchObject({ outcome: 'canceled', job: { state: 'canceled', error: 'canceled while running' } });
    expect(sawAbort).toBe(true);
    expect((await q.cancel(running.id))?.outcome).toBe('already-ended');
  });

  it("recovers a dead worker's job when its lease expires: again until the server has died maxCrashes times during it, then failed", async () => {
    const store = await stores.open();
    opened.push(store);
    // A first process claims two jobs and dies without a word (its heartbeats never run).
    const dead = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 2,
      leaseMs: 200,
      pollMs: 50,
      recoverAllRunningAtStart: false,
    });
    dead.register('work', async () => new Promise(() => {}), { maxAttempts: 2 });
    const a = await dead.enqueue('work', { id: 'a' });
    // b had already been cut short once by an earlier death of the server.
    const b = await dead.enqueue('work', { id: 'b' }, { maxAttempts: 1 });
    await store.db.updateTable('jobs').set({ crashes: 1 }).where('id', '=', b.id).execute();
    const { claimNext } = await import('../../../src/server/jobs/jobs.repo.js');
    const lease = new Date(Date.now() + 200).toISOString();
    await claimNext(store.db, { kinds: ['work'], owner: 'dead', now: new Date().toISOString(), leaseExpiresAt: lease });
    await claimNext(store.db, { kinds: ['work'], owner: 'dead', now: new Date().toISOString(), leaseExpiresAt: lease });
    expect((await dead.get(a.id))!.state).toBe('running');

    const { q } = await setup({ store, leaseMs: 200 });
    q.register('work', async () => 'done', { maxAttempts: 2 });
    await sleep(250);
    await q.start();
    // The death is counted apart from the attempts: a's run after it is still its first attempt.
    expect(await q.waitForEnd(a.id, 5000)).toMatchObject({ state: 'succeeded', attempts: 1, crashes: 1 });
    expect((await q.logs(a.id)).map((l) => l.line).join('\n')).toMatch(
      /recovered: the server stopped during attempt 1 of 2 .*queued to run again[\s\S]*attempt 1 of 2 started \(the server stopped 1 time/,
    );
    const failed = await q.waitForEnd(b.id, 5000);
    expect(failed).toMatchObject({ state: 'failed', crashes: 2 });
    expect(failed.error).toBe(
      'the server stopped 2 times while running this task; it is not run again (limit --job-max-crashes 2)',
    );
    // A retry asked for by a person starts the count again.
    expect(await q.retry(b.id)).toMatchObject({ outcome: 'requeued', job: { crashes: 0, attempts: 0 } });
    expect(await q.waitForEnd(b.id, 5000)).toMatchObject({ state: 'succeeded' });
  });

  it('fails a job at the first death with maxCrashes 1, and lets it survive more with a higher limit', async () => {
    const store = await stores.open();
    opened.push(store);
    const { claimNext } = await import('../../../src/server/jobs/jobs.repo.js');
    const crashOnce = async (q: JobQueue, id: string) => {
      const lease = new Date(Date.now() - 1).toISOString();
      const got = await claimNext(store.db, {
        kinds: ['work'],
        owner: 'dead',
        now: new Date().toISOString(),
        leaseExpiresAt: lease,
      });
      expect(got?.id).toBe(id);
      await (q as unknown as { recover(any: boolean): Promise<void> }).recover(false);
    };
    const strict = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      pollMs: 50,
      recoverAllRunningAtStart: false,
      limits: { maxCrashes: 1 },
    });
    strict.register('work', async () => 'done');
    const one = await strict.enqueue('work', {});
    await crashOnce(strict, one.id);
    expect(await strict.get(one.id)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/stopped 1 time while running this task/),
    });

    const lenient = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      pollMs: 50,
      recoverAllRunningAtStart: false,
      limits: { maxCrashes: 4 },
    });
    lenient.register('work', async () => 'done', { maxAttempts: 1 });
    const many = await lenient.enqueue('work', {});
    for (let i = 1; i <= 3; i++) {
      await crashOnce(lenient, many.id);
      expect(await lenient.get(many.id)).toMatchObject({ state: 'queued', crashes: i, attempts: 0 });
    }
    await crashOnce(lenient, many.id);
    expect(await lenient.get(many.id)).toMatchObject({ state: 'failed', crashes: 4 });
  });

  it('stops a run past its time budget and fails the job with the reason, without retrying it', async () => {
    const { q } = await setup({ concurrency: 1 });
    let runs = 0;
    q.register(
      'slow',
      (job) => {
        runs++;
        return new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(job.signal.reason)));
      },
      { timeBudgetMs: 100, maxAttempts: 3 },
    );
    await q.start();
    const job = await q.enqueue('slow', {});
    const ended = await q.waitForEnd(job.id, 5000);
    expect(ended).toMatchObject({
      state: 'failed',
      error: 'the task ran longer than its time budget of 100 ms and was stopped',
      attempts: 1,
    });
    expect(runs).toBe(1);
  });

  it('gives up a run that ignores its abort after the grace time, and its worker takes the next job', async () => {
    const { q } = await setup({
      concurrency: 1,
      limits: { budgetGraceMs: 50, timeBudgets: { byKind: { stuck: 150 } } },
    });
    q.register('stuck', () => new Promise(() => {}));
    q.register('quick', async () => 'fine');
    await q.start();
    const stuck = await q.enqueue('stuck', {});
    const quick = await q.enqueue('quick', {});
    expect(await q.waitForEnd(stuck.id, 5000)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/longer than its time budget/),
    });
    expect(await q.waitForEnd(quick.id, 5000)).toMatchObject({ state: 'succeeded' });
  });

  it('gives up a canceled run that ignores its abort after the grace time: the job ends canceled and its worker takes the next job', async () => {
    const { q } = await setup({ concurrency: 1, limits: { budgetGraceMs: 100 } });
    q.register('stuck', () => new Promise(() => {}));
    q.register('quick', async () => 'fine');
    await q.start();
    const stuck = await q.enqueue('stuck', {});
    for (let i = 0; i < 100 && (await q.get(stuck.id))!.state !== 'running'; i++) await sleep(10);
    const quick = await q.enqueue('quick', {});
    expect(await q.cancel(stuck.id)).toMatchObject({
      outcome: 'canceled',
      job: { state: 'canceled', error: 'canceled while running' },
    });
    expect(await q.waitForEnd(quick.id, 5000)).toMatchObject({ state: 'succeeded' });
  });

  it('refuses budgets named for kinds it does not run', async () => {
    const store = await stores.open();
    opened.push(store);
    const q = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      recoverAllRunningAtStart: false,
      limits: { timeBudgets: { byKind: { 'imgae-task': 1000 } } },
    });
    q.register('image-task', async () => 'x');
    await expect(q.start()).rejects.toThrow(/unknown task kind\(s\) imgae-task; the kinds are image-task/);
  });

  it('hands running jobs back to the queue on a graceful stop, without using up an attempt', async () => {
    const { store, q } = await setup();
    q.register(
      'long',
      (job) => new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(job.signal.reason))),
    );
    await q.start();
    const job = await q.enqueue('long', {});
    for (let i = 0; i < 100 && (await q.get(job.id))!.state !== 'running'; i++) await sleep(10);
    await q.stop();
    expect(await q.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null });
    const { q: next } = await setup({ store });
    next.register('long', async () => 'finished');
    await next.start();
    expect(await next.waitForEnd(job.id)).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it.runIf(underTest.dialect === 'postgres')(
    'runs each job exactly once when two instances claim from one database at once',
    async () => {
      const first = await stores.open();
      opened.push(first);
      const second = await stores.reopen(first);
      opened.push(second);
      const runs = new Map<number, number>();
      const ranOn = { a: 0, b: 0 };
      const work = (instance: 'a' | 'b') => async (job: { payload: { n: number } }) => {
        runs.set(job.payload.n, (runs.get(job.payload.n) ?? 0) + 1);
        ranOn[instance]++;
        await sleep(20);
        return job.payload.n;
      };
      const { q: a } = await setup({ store: first, concurrency: 4 });
      const { q: b } = await setup({ store: second, concurrency: 4 });
      a.register('count', work('a'));
      b.register('count', work('b'));
      const jobs = await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? a : b).enqueue('count', { n })));
      await Promise.all([a.start(), b.start()]);
      const done = await Promise.all(jobs.map((j) => a.waitForEnd(j.id, 20_000)));
      expect(done.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(runs.size).toBe(40);
      expect(ranOn.a).toBeGreaterThan(0);
      expect(ranOn.b).toBeGreaterThan(0);
    },
  );

  it.runIf(underTest.dialect === 'postgres')(
    'claims past a job another instance has locked instead of waiting for it (SKIP LOCKED)',
    async () => {
      const store = await stores.open();
      opened.push(store);
      const { q } = await setup({ store });
      q.register('work', async () => 'done');
      const older = await q.enqueue('work', { n: 1 });
      await sleep(5);
      const newer = await q.enqueue('work', { n: 2 });
      const { claimNext } = await import('../../../src/server/jobs/jobs.repo.js');
      await store.db.transaction().execute(async (trx) => {
        // another instance is in the middle of claiming the older job
        await sql`SELECT id FROM jobs WHERE id = ${older.id} FOR UPDATE`.execute(trx);
        const now = new Date().toISOString();
        const claim = claimNext(store.db, {
          kinds: ['work'],
          owner: 'me',
          now,
          leaseExpiresAt: new Date(Date.now() + 30_000).toISOString(),
        });
        const got = await Promise.race([claim, sleep(3000).then(() => 'still waiting' as const)]);
        expect(got === 'still waiting' ? got : got?.id).toBe(newer.id);
      });
    },
  );
});
