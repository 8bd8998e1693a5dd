import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { pagingOptions, betaPostsTable, typeOption, walkPages, type PagingOptions } from '../../social/common.js';
import type { BetaPost } from '../../../../contract/social-beta.js';
import type { QueryType } from '../../../../contract/social.js';

/** `facet beta social …`: the beta camelCase shapes (spec 2.13) of replies and advanced search. */
export function registerBetaSocial(beta: Command, deps: Deps): void {
  const social = beta.command('social').description('Social posts in the beta shapes: replies and advanced search');

  pagingOptions(
    social
      .command('replies')
      .argument('<tweet_id>', 'the post')
      .description('Direct replies to a post, oldest first (beta shape)'),
  )
    .addHelpText('after', '\nExamples:\n  $ facet beta social replies 1760000000000123 --json')
    .action(async (tweetId: string, opts: PagingOptions) => {
      const api = await deps.api('social');
      const io = deps.io();
      await walkPages(
        deps,
        opts,
        (cursor) => api.social.betaReplies({ tweetId, cursor }),
        (d) => ({ records: d.tweets, next: d.next_cursor }),
        (tweets: BetaPost[], last) =>
          io.print({ ...last, tweets }, () => betaPostsTable(io, tweets, `no replies to ${tweetId}`)),
      );
    });

  pagingOptions(
    social
      .command('search')
      .argument('<query>', 'advanced search syntax')
      .description('Advanced search (beta shape)')
      .addOption(typeOption()),
  )
    .addHelpText('after', '\nExamples:\n  $ facet beta social search "#rust lang:en" --type Top')
    .action(async (query: string, opts: PagingOptions & { type: QueryType }) => {
      const api = await deps.api('social');
      const io = deps.io();
      await walkPages(
        deps,
        opts,
        (cursor) => api.social.betaSearch({ query, queryType: opts.type, cursor: cursor ?? '' }),
        (d) => ({ records: d.tweets, next: d.next_cursor }),
        (tweets: BetaPost[], last) => io.print({ ...last, tweets }, () => betaPostsTable(io, tweets)),
      );
    });
}
