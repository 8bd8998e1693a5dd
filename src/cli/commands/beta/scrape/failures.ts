import type { AsyncJob } from '../../../../contract/scrape.js';
import type { IO } from '../../../io/output.js';
import { CliError, EXIT } from '../../../exit-codes.js';

/** Enough to see what went wrong at a glance; the rest is in --json and index.json. */
const SHOWN = 20;

/** Which pages of a finished job failed and why, one warning line each on stderr. */
export function reportFailedPages(io: IO, job: AsyncJob): void {
  const failed = (job.output?.data ?? []).filter((page) => page.status === 'failed');
  for (const page of failed.slice(0, SHOWN)) {
    io.warn(`${page.url}: ${page.error ? `${page.error.message} (${page.error.code})` : 'failed (no reason given)'}`);
  }
  if (failed.length > SHOWN)
    io.warn(
      `… and ${failed.length - SHOWN} more failed page(s): every reason is in the job's --json output (or index.json with --out)`,
    );
}

/**
 * A job that completed with not one page scraped did nothing the caller asked for: exit 6, as a
 * failed task (its output is printed first, the reasons are the warnings above).
 */
export function everyPageFailed(job: AsyncJob): void {
  const { total, failed } = job.progress;
  if (job.status === 'completed' && total > 0 && failed >= total)
    throw new CliError(`batch scrape ${job.id}: every page failed (${failed} of ${total})`, EXIT.taskFailed);
}
