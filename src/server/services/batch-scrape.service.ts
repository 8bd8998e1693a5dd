import { createHash } from 'node:crypto';
import stableStringify from 'safe-stable-stringify';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { AsyncJob, BatchScrapeRequest, ScrapePageResult } from '../../contract/scrape.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import { completeKey, dropKey, findKey, reserveKey } from '../store/idempotency.repo.js';
import { allPages, countPages, findScrape, insertScrape, type ScrapeJobRow } from '../store/scrape.repo.js';
import type { JobRow } from '../jobs/queue.js';
import { BATCH_SCRAPE_JOB } from './batch-scrape.runner.js';

/** An Idempotency-Key is kept at least this long after its first request (docs/decisions.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request that has held its key this long without making a job died on the way: the key is free again. */
export const ABANDONED_AFTER_MS = 60_000;
/** A completed job's output is served this long after completedAt, then outputExpired. */
export const OUTPUT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Provider metadata, not a charge (spec 8): the price a page would be authorized at. */
export const MICROS_PER_PAGE = 1000;
export const ENDPOINT = 'scrape.batch_scrape';

const STATUS: Record<JobRow['state'], AsyncJob['status']> = {
  queued: 'queued',
  running: 'running',
  succeeded: 'completed',
  failed: 'failed',
  canceled: 'cancelled',
};

/** The request's fingerprint: its validated form (defaults applied) as canonical JSON. */
export function requestHash(body: BatchScrapeRequest): string {
  return createHash('sha256').update(stableStringify(body)).digest('hex');
}

/** The key's scope: the API key of the call (spec: keys are per API key); the user for other credentials. */
const scopeOf = (auth: AuthContext) => (auth.apiKey ? `key:${auth.apiKey.id}` : `user:${auth.user.id}`);

/**
 * POST /v1/beta/scrape/batch-scrape with its Idempotency-Key, as Stripe and the IETF draft do it:
 * the first request takes the key (one guarded insert) and makes the job; the same key with the same
 * body returns that job; with another body it is a 422; while the first is still being taken, a 409.
 */
export async function createBatch(
  ctx: AppContext,
  auth: AuthContext,
  idempotencyKey: string,
  body: BatchScrapeRequest,
): Promise<{ job: AsyncJob; replayed: boolean }> {
  const scope = scopeOf(auth);
  const hash = requestHash(body);
  const now = ctx.now();
  const iso = now.toISOString();
  // A key past its window, or held by a first request that never finished, is free again.
  await dropKey(ctx.db, scope, idempotencyKey, { expiredBy: iso });
  await dropKey(ctx.db, scope, idempotencyKey, {
    createdBefore: new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString(),
  });
  const reserved = await reserveKey(ctx.db, {
    scope,
    key: idempotencyKey,
    request_hash: hash,
    created_at: iso,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  });
  if (!reserved) {
    const held = await findKey(ctx.db, scope, idempotencyKey);
    if (!held) return createBatch(ctx, auth, idempotencyKey, body); // freed between the insert and the read
    if (held.request_hash !== hash) {
      throw new HttpError(
        'IDEMPOTENCY_KEY_REUSED',
        `Idempotency-Key ${JSON.stringify(idempotencyKey)} was used with a different request body; use a new key for a new request`,
        { status: 422 },
      );
    }
    if (held.state === 'pending' || !held.job_id) {
      throw new HttpError(
        'IDEMPOTENCY_KEY_IN_USE',
        `a request with Idempotency-Key ${JSON.stringify(idempotencyKey)} is still being processed; retry in a moment`,
        { status: 409, headers: { 'retry-after': '1' } },
      );
    }
    const job = await getBatch(ctx, auth, held.job_id);
    return { job, replayed: true };
  }
  try {
    const id = newId('bsj');
    const scrape: ScrapeJobRow = {
      id,
      user_id: auth.user.id,
      api_key_id: auth.apiKey?.id ?? null,
      request: JSON.stringify(body),
      total: body.urls.length,
      created_at: iso,
    };
    await insertScrape(ctx.db, scrape, body.urls);
    await ctx.jobs.enqueue(BATCH_SCRAPE_JOB, { scrape_id: id }, { id });
    await completeKey(ctx.db, scope, idempotencyKey, id);
    return { job: await getBatch(ctx, auth, id), replayed: false };
  } catch (err) {
    await dropKey(ctx.db, scope, idempotencyKey).catch(() => undefined);
    throw err;
  }
}

async function ownScrape(ctx: AppContext, auth: AuthContext, id: string): Promise<ScrapeJobRow> {
  const scrape = await findScrape(ctx.db, id);
  if (!scrape || scrape.user_id !== auth.user.id) throw new HttpError('NOT_FOUND', `no batch scrape job ${id}`);
  return scrape;
}

/** The async job of spec 2.13 for one batch scrape. */
export async function getBatch(ctx: AppContext, auth: AuthContext, id: string): Promise<AsyncJob> {
  const scrape = await ownScrape(ctx, auth, id);
  const job = await ctx.jobs.get(id);
  if (!job) throw new HttpError('NOT_FOUND', `no batch scrape job ${id}`);
  return jobView(ctx, scrape, job);
}

async function jobView(ctx: AppContext, scrape: ScrapeJobRow, job: JobRow): Promise<AsyncJob> {
  const status = STATUS[job.state];
  const terminal = status === 'completed' || status === 'failed' || status === 'cancelled';
  const counts = await countPages(ctx.db, scrape.id);
  const completedAt = terminal ? (job.finished_at ?? job.updated_at) : null;
  const expired =
    status === 'completed' &&
    completedAt !== null &&
    ctx.now().getTime() - Date.parse(completedAt) > OUTPUT_RETENTION_MS;
  let output: AsyncJob['output'] = null;
  if (status === 'completed' && !expired) {
    const data: ScrapePageResult[] = (await allPages(ctx.db, scrape.id)).map((p) =>
      p.state === 'done'
        ? (JSON.parse(p.result!) as ScrapePageResult)
        : {
            url: p.url,
            status: 'failed',
            error: p.error
              ? (JSON.parse(p.error) as NonNullable<ScrapePageResult['error']>)
              : { code: 'NOT_SCRAPED', message: 'the page was not scraped' },
          },
    );
    output = { total: scrape.total, succeeded: counts.done, failed: scrape.total - counts.done, data };
  }
  return {
    id: scrape.id,
    object: 'integration_async_job',
    endpoint: ENDPOINT,
    status,
    createdAt: scrape.created_at,
    completedAt,
    pricing: {
      currency: 'USD',
      authorizedMicrosUSD: scrape.total * MICROS_PER_PAGE,
      finalMicrosUSD: terminal ? counts.done * MICROS_PER_PAGE : null,
      billingMode: 'per_page',
    },
    output,
    outputExpired: expired,
    ...(status === 'failed' ? { error: { code: 'BATCH_SCRAPE_FAILED', message: job.error ?? 'the job failed' } } : {}),
    progress: { total: scrape.total, done: counts.done + counts.failed, failed: counts.failed },
  };
}

/** Cancels a queued or running job; pages not yet fetched never are. An ended job is returned as it is. */
export async function cancelBatch(ctx: AppContext, auth: AuthContext, id: string): Promise<AsyncJob> {
  await ownScrape(ctx, auth, id);
  await ctx.jobs.cancel(id);
  return getBatch(ctx, auth, id);
}
