import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { argumentShape } from '../../json-candidate.js';
import { usageError } from '../../exit-codes.js';
import {
  pagingOptions,
  postsTable,
  timeOption,
  walkPages,
  withRetry,
  describeBilling,
  type PagingOptions,
} from './common.js';
import type { SocialPost } from '../../../contract/social.js';

interface Options extends PagingOptions {
  since?: number;
  until?: number;
}

export async function run(ids: string[], opts: Options, deps: Deps): Promise<void> {
  const api = await deps.api('social');
  const io = deps.io();
  if (!opts.all) {
    // One call for every id: each result is one page of that post's replies.
    if (opts.cursor && ids.length > 1) throw usageError('--cursor continues the replies of one post: give one id');
    const answer = await withRetry(deps, opts, () =>
      api.social.tweetReplies({
        tweet_ids: ids,
        since_time: opts.since,
        until_time: opts.until,
        ...(opts.cursor ? { cursor: opts.cursor } : {}),
      }),
    );
    if (opts.verbose) io.info(describeBilling(answer.billing, deps.now()));
    if (opts.ndjson) {
      for (const r of answer.data.results) for (const reply of r.replies) io.printJsonLine(reply);
      return;
    }
    io.print(
      answer.data,
      () => {
        for (const r of answer.data.results) {
          if (ids.length > 1) io.info(`replies to ${r.tweet_id}: ${r.total}`);
          postsTable(io, r.replies, `no replies to ${r.tweet_id}`);
          if (r.has_next)
            io.info(
              `${r.replies.length} of ${r.total} replies to ${r.tweet_id}; more: ${ids.length === 1 ? `--cursor ${r.next_cursor} for the next page, or ` : ''}--all`,
            );
        }
        // --json FIELDS selects from the replies of every post asked about.
      },
      answer.data.results.flatMap((r) => r.replies),
    );
    return;
  }
  // --all: a cursor continues one post's replies, so each id is walked on its own.
  const results: Array<{ replies: SocialPost[] }> = [];
  for (const id of ids) {
    await walkPages(
      deps,
      opts,
      (cursor) => api.social.tweetReplies({ tweet_ids: [id], cursor, since_time: opts.since, until_time: opts.until }),
      (d) => ({ records: d.results[0].replies, next: d.results[0].next_cursor }),
      (replies: SocialPost[], last) => {
        const r = last.results[0];
        results.push({ ...r, replies });
        if (!io.json) {
          if (ids.length > 1) io.info(`replies to ${id}: ${r.total}`);
          postsTable(io, replies, `no replies to ${id}`);
        }
      },
    );
  }
  if (io.json && !opts.ndjson)
    io.printJson(
      { results },
      results.flatMap((r) => r.replies),
    );
}

export function register(social: Command, deps: Deps): void {
  pagingOptions(
    argumentShape(social.command('replies'), { pattern: /^\d+$/ })
      .argument('<tweet_id...>', 'posts whose direct replies to list (up to 20)')
      .description('Direct replies to posts, oldest first (1 credit per reply returned)')
      .option('--since <when>', 'replies from this time (YYYY-MM-DD, ISO time or Unix seconds)', timeOption)
      .option('--until <when>', 'replies before this time (exclusive)', timeOption),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet social replies 1760000000000123\n  $ facet social replies 1760000000000123 --all --json',
    )
    .action((ids: string[], opts: Options) => run(ids, opts, deps));
}
