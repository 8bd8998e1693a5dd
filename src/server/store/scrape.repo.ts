import type { Kysely, Selectable } from 'kysely';
import type { Database, ScrapeJobsTable, ScrapePagesTable } from './database.js';

export type ScrapeJobRow = Selectable<ScrapeJobsTable>;
export type ScrapePageRow = Selectable<ScrapePagesTable>;

export async function insertScrape(db: Kysely<Database>, job: ScrapeJobRow, urls: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('scrape_jobs').values(job).execute();
    for (let i = 0; i < urls.length; i += 200) {
      const rows = urls.slice(i, i + 200).map((url, k) => ({
        job_id: job.id,
        idx: i + k,
        url,
        state: 'pending' as const,
        result: null,
        error: null,
        finished_at: null,
      }));
      await trx.insertInto('scrape_pages').values(rows).execute();
    }
  });
}

export async function findScrape(db: Kysely<Database>, id: string): Promise<ScrapeJobRow | undefined> {
  return db.selectFrom('scrape_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Page indexes still to fetch, in order. */
export async function pendingPages(db: Kysely<Database>, jobId: string): Promise<Array<{ idx: number; url: string }>> {
  return db
    .selectFrom('scrape_pages')
    .select(['idx', 'url'])
    .where('job_id', '=', jobId)
    .where('state', '=', 'pending')
    .orderBy('idx')
    .execute();
}

/**
 * Marks a page as being fetched; false when it was not pending any more. Written before the fetch,
 * so a crash mid-fetch leaves 'started' behind and the page is never fetched a second time.
 */
export async function startPage(db: Kysely<Database>, jobId: string, idx: number): Promise<boolean> {
  const r = await db
    .updateTable('scrape_pages')
    .set({ state: 'started' })
    .where('job_id', '=', jobId)
    .where('idx', '=', idx)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function finishPage(
  db: Kysely<Database>,
  jobId: string,
  idx: number,
  outcome: { state: 'done' | 'failed'; result: string | null; error: string | null; at: string },
): Promise<void> {
  await db
    .updateTable('scrape_pages')
    .set({ state: outcome.state, result: outcome.result, error: outcome.error, finished_at: outcome.at })
    .where('job_id', '=', jobId)
    .where('idx', '=', idx)
    .execute();
}

/** Pages an interrupted run was fetching: failed with `reason`, not fetched again. Returns how many. */
export async function failInterrupted(
  db: Kysely<Database>,
  jobId: string,
  reason: string,
  at: string,
): Promise<number> {
  const r = await db
    .updateTable('scrape_pages')
    .set({ state: 'failed', error: reason, finished_at: at })
    .where('job_id', '=', jobId)
    .where('state', '=', 'started')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function countPages(
  db: Kysely<Database>,
  jobId: string,
): Promise<{ done: number; failed: number; total: number }> {
  const rows = await db
    .selectFrom('scrape_pages')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('job_id', '=', jobId)
    .groupBy('state')
    .execute();
  const by = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  const total = rows.reduce((s, r) => s + Number(r.n), 0);
  return { done: by.done ?? 0, failed: by.failed ?? 0, total };
}

export async function allPages(db: Kysely<Database>, jobId: string): Promise<ScrapePageRow[]> {
  return db.selectFrom('scrape_pages').selectAll().where('job_id', '=', jobId).orderBy('idx').execute();
}
