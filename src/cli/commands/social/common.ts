import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import type { IO } from '../../io/output.js';
import { intOption } from '../../io/parse.js';
import { CliError, EXIT, usageError } from '../../exit-codes.js';
import type { Billed, SocialBilling } from '../../../client/social.js';
import type { BetaPost } from '../../../contract/social-beta.js';
import type { SocialPost, SocialUser } from '../../../contract/social.js';

export interface PagingOptions {
  all?: boolean;
  cursor?: string;
  maxCredits: number;
  ndjson?: boolean;
  retry?: boolean;
  maxRetries: number;
  verbose?: boolean;
}

/** The options every paged social command shares. */
export function pagingOptions(cmd: Command): Command {
  return cmd
    .option('--cursor <cursor>', 'continue where an earlier page stopped (its "more:" line names the cursor)')
    .option('--all', 'follow the cursor to the last page (stops at --max-credits)')
    .option(
      '--max-credits <n>',
      'with --all, spend at most this many credits (the guard)',
      intOption(1, 10_000_000),
      500,
    )
    .option('--ndjson', 'one JSON record per line, as pages arrive (for scripts)')
    .option('--retry', 'on 429, wait for Retry-After and try again')
    .option('--max-retries <n>', 'with --retry, give up after N retries', intOption(1, 100), 5)
    .option('--verbose', 'show credits spent and left and the rate-limit state on stderr');
}

export const typeOption = () =>
  new Option('--type <type>', 'order: Latest (newest first) or Top (by engagement)')
    .choices(['Latest', 'Top'])
    .default('Latest');

/** --since/--until: a date (YYYY-MM-DD, UTC midnight), an ISO time, or Unix seconds. */
export function timeOption(value: string): number {
  if (/^\d{1,11}$/.test(value)) return Number(value);
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms))
    throw usageError(`not a date or Unix time: "${value}"`, 'use YYYY-MM-DD, an ISO time or Unix seconds');
  return Math.floor(ms / 1000);
}

export function describeBilling(b: SocialBilling, now: Date): string {
  const parts = [`credits: spent ${b.cost ?? '?'}, left ${b.remaining ?? '?'}`];
  if (b.rateLimit)
    parts.push(
      `rate limit: ${b.rateLimit.remaining} of ${b.rateLimit.limit} left, resets in ${Math.max(0, b.rateLimit.reset - Math.floor(now.getTime() / 1000))} s`,
    );
  else parts.push('rate limit: exempt (paid plan or 100+ credits)');
  return parts.join('; ');
}

/** One call, waiting out 429s with --retry; 402 and 429 end with exit code 5. */
export async function withRetry<T>(
  deps: Deps,
  opts: Pick<PagingOptions, 'retry' | 'maxRetries'>,
  call: () => Promise<Billed<T>>,
): Promise<Billed<T>> {
  const io = deps.io();
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const e = err as Error & { status?: number; code?: string; retryAfterSeconds?: number };
      if (e.name !== 'ApiError' || (e.status !== 429 && e.status !== 402)) throw err;
      if (e.status === 402)
        throw new CliError(
          `${e.message} (code ${e.code}, HTTP 402)`,
          EXIT.rateLimited,
          'add credits: `facet serve users credits NAME +N` on a local platform',
        );
      const wait = e.retryAfterSeconds ?? 1;
      if (!opts.retry || attempt >= opts.maxRetries) {
        throw new CliError(
          `${e.message} (code ${e.code}, HTTP 429)`,
          EXIT.rateLimited,
          opts.retry ? `gave up after ${attempt} retries` : `try again in ${wait} s, or pass --retry to wait and retry`,
        );
      }
      io.info(`rate limited: waiting ${wait} s before retry ${attempt + 1} of ${opts.maxRetries}…`);
      await sleep(wait * 1000);
    }
  }
}

/**
 * Runs a paged call once, or with --all to the last page under the credit guard, reporting the
 * running credit count on stderr. Records go out as NDJSON as they arrive with --ndjson; otherwise
 * they are collected and `done` renders them once.
 */
export async function walkPages<P, R>(
  deps: Deps,
  opts: PagingOptions,
  fetch: (cursor: string | undefined) => Promise<Billed<P>>,
  page: (p: P) => { records: R[]; next: string; total?: number },
  done: (records: R[], last: P) => void,
): Promise<void> {
  const io = deps.io();
  const records: R[] = [];
  let cursor = opts.cursor;
  let spent = 0;
  for (;;) {
    const answer = await withRetry(deps, opts, () => fetch(cursor));
    spent += answer.billing.cost ?? 0;
    if (opts.verbose) io.info(describeBilling(answer.billing, deps.now()));
    const { records: got, next } = page(answer.data);
    if (opts.ndjson) for (const r of got) io.printJsonLine(r);
    else records.push(...got);
    if (!opts.all || !next) {
      if (opts.all) io.info(`done: ${spent} credits spent, ${answer.billing.remaining ?? '?'} left`);
      else if (next) io.info(`more: --cursor ${next} for the next page, or --all`);
      if (!opts.ndjson) done(records, answer.data);
      return;
    }
    io.info(
      `${records.length || spent} results so far, ${spent} credits spent, ${answer.billing.remaining ?? '?'} left…`,
    );
    if (spent >= opts.maxCredits) {
      io.warn(`stopped at the guard: ${spent} credits spent (--max-credits ${opts.maxCredits}); more pages remain`);
      if (!opts.ndjson) done(records, answer.data);
      return;
    }
    cursor = next;
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function postsTable(io: IO, posts: SocialPost[], empty = 'no posts match'): void {
  io.table(
    posts,
    [
      // At 80 columns a post keeps who, when and what it says; its counts go first.
      { header: 'ID', value: (p) => p.id, priority: 1 },
      { header: 'AUTHOR', value: (p) => '@' + p.author.username, priority: 1, whole: true },
      { header: 'TIME', value: (p) => p.created_at, priority: 2 },
      { header: 'LIKES', value: (p) => p.metrics.favorite_count, priority: 3 },
      { header: 'RTS', value: (p) => p.metrics.retweet_count, priority: 3 },
      { header: 'REPLIES', value: (p) => p.metrics.reply_count, priority: 3 },
      { header: 'TEXT', value: (p) => oneLine(p.content), priority: 1, min: 30 },
    ],
    { empty },
  );
}

export function betaPostsTable(io: IO, posts: BetaPost[], empty = 'no posts match'): void {
  io.table(
    posts,
    [
      { header: 'ID', value: (p) => p.id, priority: 1 },
      { header: 'AUTHOR', value: (p) => '@' + p.author.userName, priority: 1, whole: true },
      { header: 'TIME', value: (p) => new Date(p.createdAt).toISOString(), priority: 2 },
      { header: 'LIKES', value: (p) => p.likeCount, priority: 3 },
      { header: 'RTS', value: (p) => p.retweetCount, priority: 3 },
      { header: 'REPLIES', value: (p) => p.replyCount, priority: 3 },
      { header: 'TEXT', value: (p) => oneLine(p.text), priority: 1, min: 30 },
    ],
    { empty },
  );
}

export function usersTable(io: IO, users: SocialUser[], empty = 'no users match'): void {
  io.table(
    users,
    [
      { header: 'ID', value: (u) => u.user_id, priority: 1 },
      { header: 'USERNAME', value: (u) => '@' + u.username + (u.verified ? ' ✓' : ''), priority: 1 },
      { header: 'NAME', value: (u) => u.display_name, priority: 2 },
      { header: 'FOLLOWERS', value: (u) => u.followers_count, priority: 2 },
      { header: 'POSTS', value: (u) => u.tweet_count, priority: 3 },
      { header: 'BIO', value: (u) => oneLine(u.description), priority: 1, min: 20 },
    ],
    { empty },
  );
}
