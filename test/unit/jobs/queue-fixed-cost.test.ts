import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { JobQueue, type JobEvent } from '../../../src/server/jobs/queue.js';
import { describeOnStores, dropTestDatabases, type StoreUnderTest } from '../../helpers/postgres.js';

// What a task pays the queue besides its own work: statements per claim, transactions per enqueue,
// how soon a waiting caller and an idle instance learn of a change.

const opened: Store[] = [];
const queues: JobQueue[] = [];
let stores: StoreUnderTest;

afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(5))
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
}

// Counts the claim statements the queue runs (each call of the repository's claim is one statement).
// `lateEnd`: a job whose end is committed but whose last log line (and so its freed slot) comes
// later, while reads of jobs are slow, as on a busy PostgreSQL pool.
const counter = vi.hoisted(() => ({ claims: 0, inFlight: 0, lateEnd: '' }));
vi.mock('../../../src/server/jobs/jobs.repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/server/jobs/jobs.repo.js')>();
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      counter.claims++;
      counter.inFlight++;
      const result = fn(...args);
      const settled = () => void counter.inFlight--;
      void Promise.resolve(result).then(settled, settled);
      return result;
    };
  const findJob: typeof real.findJob = async (db, id) => {
    if (counter.lateEnd) await new Promise((r) => setTimeout(r, 50));
    return real.findJob(db, id);
  };
  const appendLog: typeof real.appendLog = async (db, id, at, line) => {
    if (id === counter.lateEnd && line === 'succeeded') await new Promise((r) => setTimeout(r, 200));
    return real.appendLog(db, id, at, line);
  };
  return {
    ...real,
    findJob,
    appendLog,
    claimJobs: counted(real.claimJobs),
    claimNext: counted(real.claimNext),
  };
});

async function open(): Promise<Store> {
  const store = await stores.open();
  opened.push(store);
  return store;
}

function queue(store: Store, options: { concurrency?: number; pollMs?: number } = {}): JobQueue {
  const q = new JobQueue({
    db: store.db,
    now: () => new Date(),
    concurrency: options.concurrency ?? 2,
    pollMs: options.pollMs ?? 60_000,
    recoverAllRunningAtStart: false,
  });
  queues.push(q);
  return q;
}

/** Resolves with the first event for which `test` holds. */
function nextEvent(q: JobQueue, test: (e: JobEvent) => boolean): Promise<JobEvent> {
  return new Promise((resolve) => {
    const off = q.onChange((e) => {
      if (!test(e)) return;
      off();
      resolve(e);
    });
  });
}

describeOnStores('JobQueue fixed cost per job', (underTest) => {
  beforeEach(() => {
    stores = underTest;
  });

  it('starts a job created while idle with one claim, claims one queued behind a busy worker, and asks no more while nothing is queued; a burst with one statement per round of free slots', async () => {
    const store = await open();
    const lone = queue(store, { concurrency: 1 });
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    lone.register('work', async () => {
      await gate;
      return 'done';
    });
    await lone.start();
    await until(() => counter.inFlight === 0, 'the start-up claim, which finds nothing');
    counter.claims = 0;
    // Idle, queue empty: the job is queued and the claim loop, woken by the enqueue, starts it (1 claim).
    const running = nextEvent(lone, (e) => e.kind === 'work' && e.state === 'running');
    const job = await lone.enqueue('work', {});
    expect(job.state).toBe('queued');
    expect((await running).id).toBe(job.id);
    expect(counter.claims).toBe(1);
    await sleep(20);
    expect((await lone.logs(job.id)).map((l) => l.line)).toEqual(['queued', 'attempt 1 of 3 started']);
    // The one worker is busy: the next job is queued and claimed when the worker frees up.
    const next = await lone.enqueue('work', {});
    expect(next.state).toBe('queued');
    // The end of `next` is read as committed before its worker slot frees up (its last log line is
    // slow): the count is taken once the queue is idle, not when the job's row first says succeeded.
    counter.lateEnd = next.id;
    release();
    expect((await lone.waitForEnd(job.id, 10_000)).state).toBe('succeeded');
    expect((await lone.waitForEnd(next.id, 10_000)).state).toBe('succeeded');
    await until(() => lone.activeCount === 0, 'the worker slot to free up');
    counter.lateEnd = '';
    // One claim took `next` when the slot freed, one found the queue empty after it.
    expect(counter.claims).toBe(3);
    const afterNext = counter.claims;
    // Nor did the freed slot ask again: nothing was queued since a claim found the queue empty.
    await sleep(100);
    expect(counter.claims).toBe(afterNext);
    gate = Promise.resolve();
    expect((await lone.logs(next.id)).map((l) => l.line)).toEqual(['queued', 'attempt 1 of 3 started', 'succeeded']);
    await lone.stop();

    const burst = queue(store, { concurrency: 3 });
    burst.register('many', async () => {
      await sleep(20);
      return 'done';
    });
    const jobs = await Promise.all([1, 2, 3].map((n) => burst.enqueue('many', { n })));
    counter.claims = 0;
    const firstEnd = nextEvent(burst, (e) => e.state === 'succeeded');
    await burst.start();
    await firstEnd;
    // Three free slots, three runnable jobs: one statement claimed them all (4 before: one each and an empty one).
    expect(counter.claims).toBe(1);
    const done = await Promise.all(jobs.map((j) => burst.waitForEnd(j.id, 10_000)));
    expect(done.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('commits the writes given `alongside` with the job, and none of them when the job cannot be written', async () => {
    const store = await open();
    const q = queue(store);
    q.register('work', async () => 'done');
    const user = (id: string) =>
      store.db
        .insertInto('users')
        .values({ id, name: id, role: 'user', plan: 'free', credits: 0, created_at: new Date().toISOString() })
        .compile();
    const first = await q.enqueue('work', {}, { alongside: [user('u_with_job')] });
    // The same job id again: the job's insert fails, so the user written alongside must not stay.
    await expect(q.enqueue('work', {}, { id: first.id, alongside: [user('u_without_job')] })).rejects.toThrow();
    const users = await store.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ['u_with_job', 'u_without_job'])
      .execute();
    expect(users.map((u) => u.id)).toEqual(['u_with_job']);
    expect((await q.logs(first.id)).map((l) => l.line)).toEqual(['queued']);
  });

  it('waitForEnd returns as soon as the job ends, even when it ends while the job is being read', async () => {
    const store = await open();
    const q = queue(store, { concurrency: 1, pollMs: 60_000 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.register('gated', async () => {
      await gate;
      return 'done';
    });
    await q.start();
    // On SQLite the job is claimed and running before enqueue returns: listen first.
    const running = nextEvent(q, (e) => e.kind === 'gated' && e.state === 'running');
    const job = await q.enqueue('gated', {});
    expect((await running).id).toBe(job.id);
    // The first read sees the job running; the job ends before that read returns.
    const read = q.get.bind(q);
    let reads = 0;
    q.get = async (id: string) => {
      const row = await read(id);
      if (++reads === 1) {
        const end = nextEvent(q, (e) => e.id === id && e.state === 'succeeded');
        release();
        await end;
      }
      return row;
    };
    const waited = await Promise.race([
      q.waitForEnd(job.id, 120_000),
      sleep(5_000).then(() => 'waited for the next poll' as const),
    ]);
    expect(waited === 'waited for the next poll' ? waited : waited.state).toBe('succeeded');
    expect(reads).toBe(2);
  });

  it.runIf(underTest.dialect === 'postgres')(
    'an idle instance starts a job another instance queued without waiting for its poll',
    async () => {
      const first = await open();
      const second = await stores.reopen(first as Store & { location: string });
      opened.push(second);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const busy = queue(first, { concurrency: 1, pollMs: 60_000 });
      const idle = queue(second, { concurrency: 1, pollMs: 60_000 });
      const ranOn: Record<string, string> = {};
      busy.register('work', async (job) => {
        ranOn[job.id] = 'busy';
        await gate;
        return 'done';
      });
      idle.register('work', async (job) => {
        ranOn[job.id] = 'idle';
        return 'done';
      });
      await busy.start();
      const blocker = await busy.enqueue('work', {});
      await nextEvent(busy, (e) => e.id === blocker.id && e.state === 'running');
      // Started only now: had it listened already, the blocker's own announcement could have sent it there.
      await idle.start();
      // The busy instance has no free slot; the idle one learns of the job from the database's notification.
      const job = await busy.enqueue('work', {});
      const started = await Promise.race([
        nextEvent(idle, (e) => e.id === job.id && e.state === 'running'),
        sleep(10_000).then(() => 'waited for the next poll' as const),
      ]);
      expect(started === 'waited for the next poll' ? started : started.state).toBe('running');
      expect((await idle.waitForEnd(job.id, 10_000)).state).toBe('succeeded');
      expect(ranOn[job.id]).toBe('idle');
      release();
      expect((await busy.waitForEnd(blocker.id, 10_000)).state).toBe('succeeded');
    },
  );
});
