import { setTimeout as sleep } from 'node:timers/promises';
import type { AsyncJob } from '../../../../contract/scrape.js';
import type { ApiOf } from '../../../../client/index.js';
import type { Deps } from '../../../deps.js';
import { CliError, EXIT } from '../../../exit-codes.js';
import { startSpinner } from '../../../io/spinner.js';
import { facetCommand } from '../../../io/follow-up.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function bar(done: number, total: number, width = 24): string {
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

/**
 * Polls a batch scrape until it ends, with a progress bar of URLs done of total on a terminal (one
 * line per change otherwise, none with --quiet). Failed or cancelled is exit 6; Ctrl-C stops the
 * waiting only (exit 130), the job goes on.
 */
export async function waitForScrape(
  api: ApiOf<'scrape'>,
  id: string,
  opts: { interval: number; timeout: number },
  deps: Deps,
): Promise<AsyncJob> {
  const started = Date.now();
  const quiet = Boolean(deps.globals().quiet);
  const interrupted = () =>
    new CliError(
      `interrupted: stopped waiting; job ${id} keeps running on the server`,
      EXIT.interrupted,
      `follow it again with: ${facetCommand(deps, `beta scrape wait ${id}`)}`,
    );
  const waiting = await startSpinner(deps, `${id}: waiting`, { interrupted });
  let last = '';
  try {
    for (;;) {
      const job = await waiting.race(api.scrape.get(id, { signal: waiting.signal }));
      const line = `${id}: ${job.status} ${bar(job.progress.done, job.progress.total)}${job.progress.failed ? ` (${job.progress.failed} failed)` : ''}`;
      if (waiting.drawn) waiting.setText(line);
      else if (line !== last && !quiet) deps.streams.stderr.write(line + '\n');
      last = line;
      if (TERMINAL.has(job.status)) {
        if (job.status === 'completed') {
          waiting.succeed(
            `${id}: completed, ${job.output?.succeeded ?? job.progress.done - job.progress.failed} of ${job.progress.total} page(s) scraped`,
          );
          return job;
        }
        waiting.fail(`${id}: ${job.status}`);
        throw new CliError(
          `batch scrape ${id} ${job.status}${job.error ? `: ${job.error.message}` : ''}`,
          EXIT.taskFailed,
        );
      }
      if (Date.now() - started > opts.timeout * 1000) {
        waiting.clear();
        throw new CliError(
          `batch scrape ${id} is still ${job.status} after ${opts.timeout}s; it keeps running`,
          EXIT.failure,
          `\`${facetCommand(deps, `beta scrape wait ${id}`)}\` to keep waiting`,
        );
      }
      await waiting.race(sleep(opts.interval * 1000, undefined, { signal: waiting.signal }));
    }
  } finally {
    waiting.close();
  }
}
