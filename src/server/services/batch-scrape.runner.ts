import { setMaxListeners } from 'node:events';
import type { AppContext } from '../context.js';
import type { BatchScrapeRequest, ScrapePageResult } from '../../contract/scrape.js';
import { JobFailure, type JobContext } from '../jobs/queue.js';
import { ExtractFailed } from '../engines/extract/load-page.js';
import { extractUncommitted, saveCached, type CacheEntry } from './web-extract.service.js';
import { ConnectionPool } from '../net/connection-pool.js';
import { failInterrupted, findScrape, finishPage, pendingPages, startPage } from '../store/scrape.repo.js';
import { HttpError } from '../errors.js';

export const BATCH_SCRAPE_JOB = 'batch-scrape';

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'jobs' | 'fetchPolicy'>;

/** The per-URL error codes of a batch scrape's output (docs/decisions.md). */
function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof ExtractFailed) {
    const code =
      {
        refused: 'FETCH_REFUSED',
        http: 'PAGE_HTTP_ERROR',
        timeout: 'PAGE_TIMEOUT',
        'not-html': 'NOT_HTML',
        'too-large': 'PAGE_TOO_LARGE',
      }[err.kind as string] ?? 'SCRAPE_FAILED';
    return { code, message: err.message };
  }
  // The CPU pool's refusals (queue full, a time or memory limit) say which limit, under their own code.
  if (err instanceof HttpError) return { code: err.code, message: err.message };
  return { code: 'SCRAPE_FAILED', message: `internal error: ${(err as Error).message}` };
}

export const INTERRUPTED = 'INTERRUPTED';

/**
 * Runs one batch scrape: its pending pages, `maxConcurrency` at a time, each through the extraction
 * engine (the shared cache applies within maxAge/minAge). Every page is claimed (pending → started)
 * in the store before it is fetched and its outcome written when done, so a restart resumes with the
 * pages left and a page is fetched at most once per job: one a crash caught mid-fetch is reported as
 * failed (INTERRUPTED) instead of being fetched again. Cancel stops claiming and aborts fetches.
 */
export function batchScrapeHandler(ctx: Ctx) {
  return async (job: JobContext<{ scrape_id: string }>) => {
    const scrape = await findScrape(ctx.db, job.payload.scrape_id);
    if (!scrape) throw new JobFailure(`batch scrape ${job.payload.scrape_id} no longer exists`);
    const req = JSON.parse(scrape.request) as BatchScrapeRequest;
    const interrupted = await failInterrupted(
      ctx.db,
      scrape.id,
      JSON.stringify({
        code: INTERRUPTED,
        message:
          'the server stopped while this page was being fetched; it is not fetched again so that no page is scraped twice in one job',
      }),
      ctx.now().toISOString(),
    );
    if (interrupted > 0)
      await job.log(
        `${interrupted} page(s) were being fetched when the last run stopped: reported as failed, not fetched again`,
      );
    const todo = await pendingPages(ctx.db, scrape.id);
    // Every page in flight listens to the job's signal (its fetch, its CPU job): up to 20 at once.
    setMaxListeners(4 * req.maxConcurrency + 10, job.signal);
    await job.log(`${todo.length} of ${scrape.total} page(s) to scrape, ${req.maxConcurrency} at a time`);
    let next = 0;
    /** Claims the next pending page through `db` (pending → started); null when none is left. */
    const claimNext = async (db: Ctx['db']) => {
      while (next < todo.length) {
        const page = todo[next++];
        if (await startPage(db, scrape.id, page.idx)) return page;
      }
      return null;
    };
    const pool = new ConnectionPool();
    const worker = async () => {
      let page = job.signal.aborted ? null : await claimNext(ctx.db);
      while (page) {
        let outcome: ScrapePageResult;
        let cacheEntry: CacheEntry | null = null;
        try {
          const extracted = await extractUncommitted(ctx as AppContext, {
            url: page.url,
            // The surface takes https URLs only, so a redirect may not take a page to plain http.
            load: { mode: 'fast', timeoutMs: req.timeout, httpsOnly: true },
            shape: {
              format: 'markdown',
              readability: req.onlyMainContent ? 'article' : 'off',
              includeTags: req.includeTags,
              excludeTags: req.excludeTags,
            },
            cache: { maxAgeMs: req.maxAge, minAgeMs: req.minAge },
            signal: job.signal,
            pool,
            owner: scrape.api_key_id ?? scrape.user_id,
          });
          const data = extracted.data;
          cacheEntry = extracted.cacheEntry;
          outcome = {
            url: page.url,
            status: 'success',
            title: data.title,
            description: data.description,
            markdown: data.content as string,
            finalUrl: data.final_url,
            cached: data.cached,
            warnings: data.warnings,
          };
        } catch (err) {
          // Cancelled or stopping: the request may have reached the page, so it stays 'started'
          // and a later run reports it interrupted rather than fetching it again.
          if (job.signal.aborted) return;
          outcome = { url: page.url, status: 'failed', error: errorOf(err) };
        }
        const now = ctx.now();
        const at = now.toISOString();
        const done = page;
        // One commit a page: its cache entry, its outcome, and the claim of the next page (claimed
        // before it is fetched, as always). Three commits a page were most of the store's time.
        page = await ctx.db.transaction().execute(async (trx) => {
          if (cacheEntry) await saveCached(trx, cacheEntry, now, ctx.db);
          await finishPage(
            trx,
            scrape.id,
            done.idx,
            outcome.status === 'success'
              ? { state: 'done', result: JSON.stringify(outcome), error: null, at }
              : { state: 'failed', result: null, error: JSON.stringify(outcome.error), at },
          );
          return job.signal.aborted ? null : claimNext(trx);
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(req.maxConcurrency, Math.max(1, todo.length)) }, worker));
    } finally {
      await pool.close();
    }
    job.signal.throwIfAborted();
    return { scrape_id: scrape.id };
  };
}

export function registerBatchScrape(ctx: Ctx): void {
  // A crash-interrupted run counts as an attempt; pages already done are never redone.
  // Up to 1000 pages of up to 300 s each: a healthy batch can run for hours, so its budget is six.
  ctx.jobs.register(BATCH_SCRAPE_JOB, batchScrapeHandler(ctx), {
    maxAttempts: 5,
    retryDelayMs: 500,
    timeBudgetMs: 6 * 3600_000,
  });
}
