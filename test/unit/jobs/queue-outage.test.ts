import { afterAll, afterEach, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { JobQueue } from '../../../src/server/jobs/queue.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../../helpers/postgres.js';
import { outageProxy, type OutageProxy } from '../../helpers/outage-proxy.js';

/**
 * Issue 46: a PostgreSQL outage counted a crash against healthy tasks (`--job-max-crashes`): a run
 * that ended while the database was away could not commit its end and stayed "running" until its
 * lease ran out, and another instance's recovery took a lease that ran out during the outage for a
 * dead worker. Both now go back to the queue (or finish) without a crash counted.
 */
const opened: Store[] = [];
const queues: JobQueue[] = [];
const proxies: OutageProxy[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function instance(url: string, leaseMs: number) {
  const store = await openStore({ dataDir: null, databaseUrl: url });
  opened.push(store);
  const q = new JobQueue({
    db: store.db,
    now: () => new Date(),
    concurrency: 2,
    leaseMs,
    pollMs: 50,
    recoverAllRunningAtStart: false,
    limits: { maxCrashes: 1 },
    outageRequeueMs: 100,
  });
  queues.push(q);
  return { store, q };
}

afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop(1_000);
  for (const s of opened.splice(0)) await s.close();
  for (const p of proxies.splice(0)) await p.close();
});
afterAll(dropTestDatabases);

describePostgres('the job queue across a PostgreSQL outage', () => {
  it('a run that ends while the database is away commits its end once it is back, no crash counted', async () => {
    const proxy = await outageProxy(await createTestDatabase());
    proxies.push(proxy);
    const { q } = await instance(proxy.url, 1_000);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    q.register('slow', async () => {
      await released;
      return { ok: true };
    });
    await q.start();
    const job = await q.enqueue('slow', {});
    for (let i = 0; i < 100 && (await q.get(job.id))?.state !== 'running'; i++) await sleep(50);
    await proxy.down();
    release(); // the run ends during the outage
    await sleep(2_500); // past its lease
    await proxy.up();
    const ended = await q.waitForEnd(job.id, 20_000);
    expect(ended).toMatchObject({ state: 'succeeded', crashes: 0, attempts: 1 });
    expect(JSON.parse(ended.result!)).toEqual({ ok: true });
  }, 40_000);

  it("another instance's recovery of a lease that ran out during the outage counts no crash", async () => {
    const url = await createTestDatabase();
    const toA = await outageProxy(url);
    const toB = await outageProxy(url);
    proxies.push(toA, toB);
    const a = await instance(toA.url, 800);
    const b = await instance(toB.url, 800);
    let runs = 0;
    let firstStarted!: () => void;
    const started = new Promise<void>((r) => (firstStarted = r));
    const work = async (job: { signal: AbortSignal }) => {
      runs++;
      if (runs === 1) {
        firstStarted();
        // The first run goes on through the outage and then notices its lease was taken.
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve()));
        throw new Error('stopped');
      }
      return { run: runs };
    };
    a.q.register('task', work);
    b.q.register('task', work);
    await a.q.start();
    const job = await a.q.enqueue('task', {});
    await started;
    await b.q.start();
    // Both instances lose the database for longer than a lease; B gets it back first and recovers
    // the job A was running (A is still cut off, so it cannot renew the lease in between).
    await Promise.all([toA.down(), toB.down()]);
    await sleep(3_000);
    await toB.up();
    await sleep(2_000);
    await toA.up();
    const ended = await b.q.waitForEnd(job.id, 20_000);
    // With --job-max-crashes 1 a counted crash would have failed it.
    expect(ended).toMatchObject({ state: 'succeeded', crashes: 0 });
    const logs = (await b.q.logs(job.id)).map((l) => l.line).join('\n');
    expect(logs).toMatch(/ran out while the database could not be reached/);
    expect(logs).not.toMatch(/server stops during this task/);
  }, 40_000);
});
