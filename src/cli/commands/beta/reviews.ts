import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { REVIEW_LIMITS } from '../../../contract/beta-reviews.js';
import { TASK_STATUS } from '../../../contract/beta-seo.js';
import type { Envelope } from '../../../client/beta.js';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { intOption, numberOption } from '../../io/parse.js';
import { printOutcome, taskResult } from './envelope-output.js';

const PLATFORMS = ['google', 'trustpilot', 'tripadvisor'];
const platformOption = () =>
  new Option('--platform <platform>', 'review platform').choices(PLATFORMS).default('google');

interface PostOptions {
  platform: string;
  depth?: number;
  sort?: string;
  priority?: number;
  pingback?: string;
  postback?: string;
  tag?: string;
  wait?: boolean;
  interval: number;
  timeout: number;
  raw?: boolean;
}

interface ReviewResult {
  domain: string;
  reviews_count: number;
  rating: { value: number };
  items: Array<{
    rank_absolute: number;
    rating: { value: number };
    timestamp: string;
    user_profile: { name: string };
    review_text: string;
  }>;
}

function printReviews(deps: Deps, opts: { raw?: boolean }, env: Envelope): void {
  const io = deps.io();
  const result = taskResult<ReviewResult>(env);
  printOutcome(io, opts, [env], result, () => {
    const r = result[0];
    io.info(`${r.domain}: ${r.reviews_count} reviews, rated ${r.rating.value} of 5`);
    io.table(r.items, [
      { header: '#', value: (i) => i.rank_absolute },
      { header: 'RATING', value: (i) => i.rating.value },
      { header: 'DATE', value: (i) => i.timestamp.slice(0, 10) },
      { header: 'BY', value: (i) => i.user_profile.name },
      { header: 'REVIEW', value: (i) => i.review_text },
    ]);
  });
}

/** task_get until the task leaves the queue: 40602 means not yet. */
async function waitFor(deps: Deps, platform: string, id: string, opts: PostOptions): Promise<Envelope> {
  const api = await deps.api('beta');
  const started = Date.now();
  for (;;) {
    const env = await api.beta.reviewGet(platform, id);
    if (env.tasks[0]?.status_code !== TASK_STATUS.taskInQueue.code) return env;
    if (Date.now() - started > opts.timeout * 1000)
      throw new CliError(
        `review task ${id} is still queued after ${opts.timeout} s`,
        EXIT.taskFailed,
        `collect it later: facet beta reviews get ${id} --platform ${platform}`,
      );
    await sleep(opts.interval * 1000);
  }
}

async function post(domain: string, opts: PostOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  const task: Record<string, unknown> = { domain };
  if (opts.depth !== undefined) task.depth = opts.depth;
  if (opts.sort) task.sort_by = opts.sort;
  if (opts.priority !== undefined) task.priority = opts.priority;
  if (opts.pingback) task.pingback_url = opts.pingback;
  if (opts.postback) task.postback_url = opts.postback;
  if (opts.tag) task.tag = opts.tag;
  const env = await api.beta.reviewPost(opts.platform, [task]);
  taskResult(env);
  const id = env.tasks[0].id;
  if (opts.wait) return printReviews(deps, opts, await waitFor(deps, opts.platform, id, opts));
  printOutcome(
    io,
    opts,
    [env],
    { id, status_code: env.tasks[0].status_code, status_message: env.tasks[0].status_message },
    () => {
      io.write(id + '\n');
      io.info(
        `queued; collect with: facet beta reviews get ${id}${opts.platform !== 'google' ? ` --platform ${opts.platform}` : ''}`,
      );
    },
  );
}

export function register(parent: Command, deps: Deps): void {
  const reviews = parent
    .command('reviews')
    .description('Review tasks: queue, list the ready ones, collect results, see callback deliveries');
  reviews
    .command('post')
    .argument('<domain>', 'the reviewed business domain')
    .description('Queue a review task (prints its id, or the reviews with --wait)')
    .addOption(platformOption())
    .option(
      '--depth <n>',
      `reviews to collect (1-${REVIEW_LIMITS.maxDepth}, default ${REVIEW_LIMITS.defaultDepth})`,
      intOption(1, REVIEW_LIMITS.maxDepth),
    )
    .addOption(new Option('--sort <by>', 'relevance (default) or recency').choices(['relevance', 'recency']))
    .option('--priority <n>', '1 normal (default), 2 high', intOption(1, 2))
    .option('--pingback <url>', 'GET this URL when the task completes ($id and $tag are filled in)')
    .option('--postback <url>', 'POST the results, gzip-compressed, to this URL ($id, $tag)')
    .option('--tag <text>', 'a label for the task (max 255 characters)')
    .option('--wait', 'wait for the task and print its reviews')
    .option('--interval <s>', 'with --wait, seconds between polls (default 2)', numberOption(0.05), 2)
    .option('--timeout <s>', 'with --wait, give up after this many seconds (default 300)', numberOption(1), 300)
    .option('--raw', 'print the whole provider envelope')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta reviews post example.com --depth 40 --wait\n  $ facet beta reviews post example.com --postback "https://hooks.example.net/reviews?id=$id&tag=$tag" --tag batch-7',
    )
    .action((domain: string, opts: PostOptions) => post(domain, opts, deps));

  reviews
    .command('ready')
    .description('Completed review tasks not collected yet')
    .addOption(platformOption())
    .option('--raw', 'print the whole provider envelope')
    .action(async (opts: { platform: string; raw?: boolean }) => {
      const env = await (await deps.api('beta')).beta.reviewsReady(opts.platform);
      const ready = taskResult<{ id: string; tag: string | null; date_completed: string }>(env);
      const io = deps.io();
      printOutcome(io, opts, [env], ready, () =>
        io.table(
          ready,
          [
            { header: 'ID', value: (t) => t.id },
            { header: 'TAG', value: (t) => t.tag ?? '' },
            { header: 'COMPLETED', value: (t) => t.date_completed },
          ],
          { empty: 'No review tasks are ready.' },
        ),
      );
    });

  reviews
    .command('get')
    .argument('<id>', 'the task id task_post gave')
    .description("A review task's result (takes it off the ready list)")
    .addOption(platformOption())
    .option('--raw', 'print the whole provider envelope')
    .action(async (id: string, opts: { platform: string; raw?: boolean }) =>
      printReviews(deps, opts, await (await deps.api('beta')).beta.reviewGet(opts.platform, id)),
    );

  reviews
    .command('callbacks')
    .argument('<id>', 'the task id')
    .description('Every pingback and postback attempt of a review task')
    .addOption(platformOption())
    .option('--raw', 'print the whole provider envelope')
    .action(async (id: string, opts: { platform: string; raw?: boolean }) => {
      const env = await (await deps.api('beta')).beta.reviewCallbacks(opts.platform, id);
      const log = taskResult<{
        kind: string;
        url: string;
        attempt: number;
        status_code: number | null;
        delivered: boolean;
        error: string | null;
        at: string;
      }>(env);
      const io = deps.io();
      printOutcome(io, opts, [env], log, () =>
        io.table(
          log,
          [
            { header: 'KIND', value: (d) => d.kind },
            { header: 'ATTEMPT', value: (d) => d.attempt },
            { header: 'STATUS', value: (d) => (d.delivered ? 'delivered' : 'failed') },
            { header: 'HTTP', value: (d) => d.status_code ?? '' },
            { header: 'ERROR', value: (d) => d.error ?? '' },
            { header: 'URL', value: (d) => d.url },
          ],
          { empty: 'No callbacks were sent.' },
        ),
      );
    });
}
