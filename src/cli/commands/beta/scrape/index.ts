import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { AsyncJob } from '../../../../contract/scrape.js';
import type { Deps } from '../../../deps.js';
import { collect, intOption, numberOption } from '../../../io/parse.js';
import { CliError, usageError } from '../../../exit-codes.js';
import { waitForScrape } from './wait.js';
import { everyPageFailed, reportFailedPages } from './failures.js';
import { printCreated } from '../../../render/created.js';
import { facetCommand } from '../../../io/follow-up.js';

interface ScrapeOptions {
  urlsFile?: string;
  concurrency?: number;
  mainContent?: boolean;
  includeTag?: string[];
  excludeTag?: string[];
  idempotencyKey?: string;
  wait?: boolean;
  interval: number;
  timeout: number;
  out?: string;
}

/** A job: with --json the whole of it, on a terminal its fields, piped (`JOB=$(facet beta scrape …)`) its id. */
function printJob(deps: Deps, job: AsyncJob): void {
  const io = deps.io();
  printCreated(io, job, [job.id], () =>
    io.fields([
      ['id', job.id],
      ['status', job.status],
      [
        'progress',
        `${job.progress.done}/${job.progress.total}${job.progress.failed ? ` (${job.progress.failed} failed)` : ''}`,
      ],
      ['created', job.createdAt],
      ['completed', job.completedAt ?? ''],
      ...(job.error ? ([['error', job.error.message]] as Array<[string, unknown]>) : []),
    ]),
  );
}

/** One Markdown file per scraped page (NNNN-host-path.md) and index.json with every result. */
async function writeOutput(dir: string, job: AsyncJob): Promise<number> {
  await mkdir(dir, { recursive: true });
  const data = job.output?.data ?? [];
  let written = 0;
  for (const [i, page] of data.entries()) {
    if (page.status !== 'success' || page.markdown === undefined) continue;
    const u = new URL(page.url);
    const slug = `${u.host}${u.pathname}`
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80);
    await writeFile(
      path.join(dir, `${String(i + 1).padStart(4, '0')}-${slug || 'page'}.md`),
      page.markdown.endsWith('\n') ? page.markdown : page.markdown + '\n',
    );
    written++;
  }
  await writeFile(path.join(dir, 'index.json'), JSON.stringify(job, null, 2) + '\n');
  return written;
}

async function urlsOf(args: string[], opts: ScrapeOptions): Promise<string[]> {
  const urls = [...args];
  if (opts.urlsFile) {
    let text: string;
    try {
      text = opts.urlsFile === '-' ? await readStdin() : await readFile(opts.urlsFile, 'utf8');
    } catch (err) {
      throw new CliError(
        `cannot read ${opts.urlsFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    urls.push(
      ...text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    );
  }
  if (urls.length === 0) throw usageError('give one or more URLs, or --urls-file FILE');
  return urls;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function run(args: string[], opts: ScrapeOptions, deps: Deps): Promise<void> {
  const urls = await urlsOf(args, opts);
  const api = await deps.api('scrape');
  const io = deps.io();
  const key = opts.idempotencyKey ?? randomUUID();
  // Printed first, so a retry after a lost answer can reuse it and get the same job.
  if (!opts.idempotencyKey) io.info(`idempotency key: ${key} (retry safely with --idempotency-key ${key})`);
  const { job } = await api.scrape.create(
    {
      urls,
      ...(opts.concurrency ? { maxConcurrency: opts.concurrency } : {}),
      ...(opts.mainContent ? { onlyMainContent: true } : {}),
      ...(opts.includeTag?.length ? { includeTags: opts.includeTag } : {}),
      ...(opts.excludeTag?.length ? { excludeTags: opts.excludeTag } : {}),
    },
    key,
  );
  if (!opts.wait) {
    io.info(
      `batch scrape ${job.id} ${job.status}; follow it with: ${facetCommand(deps, `beta scrape wait ${job.id}`)}`,
    );
    return printJob(deps, job);
  }
  const done = await waitForScrape(api, job.id, opts, deps);
  reportFailedPages(io, done);
  if (opts.out) io.success(`wrote ${await writeOutput(opts.out, done)} page(s) and index.json to ${opts.out}`);
  printJob(deps, done);
  everyPageFailed(done);
}

/**
 * `scrape` and its `wait` share --interval, --timeout and --out, and commander hands an option to
 * the first command that knows it: `scrape wait ID --interval 2` lands on `scrape`. Take the value
 * from whichever of the two the user actually set.
 */
function ownOrParent<T>(cmd: Command, names: string[]): T {
  const parent = cmd.parent!;
  const own = cmd.opts();
  const out: Record<string, unknown> = { ...own };
  for (const n of names)
    if (cmd.getOptionValueSource(n) !== 'cli' && parent.getOptionValueSource(n) === 'cli') out[n] = parent.opts()[n];
  return out as T;
}

export function register(beta: Command, deps: Deps): void {
  const scrape = beta
    .command('scrape')
    .argument('[urls...]', 'HTTPS pages to scrape (1-1000, unique)')
    .description('Batch-scrape HTTPS pages as an async job (get, wait, cancel follow it)')
    .option('--urls-file <file>', 'read URLs from FILE, one per line (- for stdin; # comments)')
    .option('--concurrency <n>', 'pages fetched at once, 1-20 (default 10)', intOption(1, 20))
    .option('--main-content', 'main content only (Readability) instead of the whole page')
    .option('--include-tag <tag>', 'keep only these elements; repeatable', collect)
    .option('--exclude-tag <tag>', 'drop these elements; repeatable', collect)
    .option('--idempotency-key <key>', 'reuse the key of an earlier attempt to get its job instead of a new one')
    .option('--wait', 'wait for the job with a progress bar (exit 6 if it fails or is cancelled)')
    .option('--interval <s>', 'with --wait: seconds between polls', numberOption(0.1), 1)
    .option('--timeout <s>', 'with --wait: give up waiting after this many seconds', numberOption(1), 3600)
    .option('--out <dir>', 'with --wait: write each page as Markdown and index.json into DIR')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta scrape https://example.com/a https://example.com/b --wait --out pages/\n  $ facet beta scrape --urls-file urls.txt --concurrency 20 --main-content --json\n  $ facet beta scrape wait bsj_0123456789abcdef --out pages/',
    )
    .action((urls: string[], opts: ScrapeOptions) => run(urls, opts, deps));

  scrape
    .command('get')
    .argument('<job>', 'the job id (bsj_…)')
    .description('Show a batch scrape job (with --json: the whole job, output included)')
    .action(async (id: string) => printJob(deps, await (await deps.api('scrape')).scrape.get(id)));
  scrape
    .command('wait')
    .argument('<job>', 'the job id (bsj_…)')
    .description('Wait for a batch scrape job: exit 0 when completed, 6 when failed or cancelled')
    .option('--interval <s>', 'seconds between polls', numberOption(0.1), 1)
    .option('--timeout <s>', 'give up waiting after this many seconds', numberOption(1), 3600)
    .option('--out <dir>', 'write each page as Markdown and index.json into DIR')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const opts = ownOrParent<{ interval: number; timeout: number; out?: string }>(cmd, [
        'interval',
        'timeout',
        'out',
      ]);
      const api = await deps.api('scrape');
      const job = await waitForScrape(api, id, opts, deps);
      reportFailedPages(deps.io(), job);
      if (opts.out)
        deps.io().success(`wrote ${await writeOutput(opts.out, job)} page(s) and index.json to ${opts.out}`);
      printJob(deps, job);
      everyPageFailed(job);
    });
  scrape
    .command('cancel')
    .argument('<job>', 'the job id (bsj_…)')
    .description('Cancel a batch scrape job; pages not yet fetched never are (an ended job: exit 1)')
    .action(async (id: string) => {
      const job = await (await deps.api('scrape')).scrape.cancel(id);
      // As every cancel: an ended job was not cancelled now, and the exit says so.
      if (job.status === 'completed' || job.status === 'failed')
        throw new CliError(`batch scrape ${id} has already ended (${job.status}); only a running job can be cancelled`);
      printJob(deps, job);
    });
}
