import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { reserveKey } from '../../../src/server/store/idempotency.repo.js';
import { createBatch, requestHash, ABANDONED_AFTER_MS } from '../../../src/server/services/batch-scrape.service.js';
import { BatchScrapeRequest } from '../../../src/contract/scrape.js';
import { JobQueue } from '../../../src/server/jobs/queue.js';
import { BATCH_SCRAPE_JOB } from '../../../src/server/services/batch-scrape.runner.js';
import { HttpError } from '../../../src/server/errors.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const auth = { user: { id: 'u1' }, apiKey: { id: 'k1' }, via: 'key' } as unknown as AuthContext;
const body = BatchScrapeRequest.parse({ urls: ['https://example.com/a', 'https://example.com/b'] });

describeOnStores('batch scrape idempotency', (stores) => {
  async function setup(now: Date) {
    const s = await stores.open();
    opened.push(s);
    // A queue that is never started: enqueued jobs stay queued, which is all these tests need.
    const jobs = new JobQueue({ db: s.db, now: () => now, concurrency: 1, recoverAllRunningAtStart: false });
    jobs.register(BATCH_SCRAPE_JOB, async () => undefined);
    return { db: s.db, now: () => now, jobs } as unknown as AppContext;
  }

  it('a key whose first request is still being taken is a 409, for the same body and scope', async () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const ctx = await setup(now);
    await reserveKey(ctx.db, {
      scope: 'key:k1',
      key: 'busy',
      request_hash: requestHash(body),
      created_at: now.toISOString(),
      expires_at: '2026-01-02T00:00:00.000Z',
    });
    const err = await createBatch(ctx, auth, 'busy', body).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
  });

  it('the same body replays the job, another body is a 422; defaults count as the same body', async () => {
    const ctx = await setup(new Date('2026-01-01T00:00:00.000Z'));
    const first = await createBatch(ctx, auth, 'k', body);
    expect(first.replayed).toBe(false);
    const explicit = BatchScrapeRequest.parse({
      urls: body.urls,
      maxConcurrency: 10,
      onlyMainContent: false,
      maxAge: 0,
      minAge: 0,
      timeout: 30_000,
    });
    const again = await createBatch(ctx, auth, 'k', explicit);
    expect(again).toMatchObject({ replayed: true, job: { id: first.job.id } });
    const other = await createBatch(ctx, auth, 'k', { ...body, maxConcurrency: 3 }).catch((e) => e);
    expect(other).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('a key is free again after 24 h, and a pending key whose request died is free after a minute', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const ctx = await setup(now);
    (ctx as { now: () => Date }).now = () => now;
    const first = await createBatch(ctx, auth, 'k', body);
    now = new Date(now.getTime() + 24 * 3600_000 + 1);
    const later = await createBatch(ctx, auth, 'k', { ...body, maxConcurrency: 3 });
    expect(later.replayed).toBe(false);
    expect(later.job.id).not.toBe(first.job.id);

    await reserveKey(ctx.db, {
      scope: 'key:k1',
      key: 'dead',
      request_hash: 'x',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
    });
    now = new Date(now.getTime() + ABANDONED_AFTER_MS + 1);
    expect((await createBatch(ctx, auth, 'dead', body)).replayed).toBe(false);
  });
});
