import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { pagingOptions, postsTable, timeOption, typeOption, walkPages, type PagingOptions } from './common.js';
import type { QueryType, SocialPost } from '../../../contract/social.js';

interface Options extends PagingOptions {
  type: QueryType;
  since?: number;
  until?: number;
  limit?: number;
}

export async function run(query: string, opts: Options, deps: Deps): Promise<void> {
  const api = await deps.api('social');
  const io = deps.io();
  await walkPages(
    deps,
    opts,
    (cursor) =>
      api.social.tweetSearch({
        query,
        query_type: opts.type,
        since_time: opts.since,
        until_time: opts.until,
        limit: opts.limit,
        cursor,
      }),
    (d) => ({ records: d.tweets, next: d.next_cursor }),
    (tweets: SocialPost[], last) => {
      io.print({ ...last, tweets }, () => {
        postsTable(io, tweets);
      });
    },
  );
}

export function register(social: Command, deps: Deps): void {
  pagingOptions(
    social
      .command('search')
      .argument(
        '<query>',
        'advanced search: words, "phrases", OR, -negation, from: to: @user #tag $CASH lang: since: until: min_faves: filter: …',
      )
      .description('Search posts (1 credit per post returned)')
      .addOption(typeOption())
      .option('--since <when>', 'from this time (YYYY-MM-DD, ISO time or Unix seconds)', timeOption)
      .option('--until <when>', 'before this time (exclusive)', timeOption)
      .option('--limit <n>', 'posts per page (1-100, default 20)', intOption(1, 100)),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet social search "coffee lang:en -filter:replies"\n  $ facet social search "#rust OR #typescript" --type Top --limit 5\n  $ facet social search "from:kari12 since:2025-09-01" --all --ndjson',
    )
    .action((query: string, opts: Options) => run(query, opts, deps));
}
