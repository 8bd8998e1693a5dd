import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { usageError } from '../../exit-codes.js';
import {
  describeBilling,
  pagingOptions,
  postsTable,
  usersTable,
  walkPages,
  withRetry,
  type PagingOptions,
} from './common.js';
import type { SocialPost, SocialUser } from '../../../contract/social.js';

interface TweetsOptions extends PagingOptions {
  id?: string;
  replies?: boolean;
  limit?: number;
}

async function info(names: string[], opts: PagingOptions, deps: Deps): Promise<void> {
  const api = await deps.api('social');
  const io = deps.io();
  const answer = await withRetry(deps, opts, () =>
    api.social.userInfo({ usernames: names.map((n) => n.replace(/^@/, '')) }),
  );
  if (opts.verbose) io.info(describeBilling(answer.billing, deps.now()));
  const found = new Set(answer.data.users.map((u) => u.username.toLowerCase()));
  for (const n of names) if (!found.has(n.replace(/^@/, '').toLowerCase())) io.warn(`no user @${n.replace(/^@/, '')}`);
  if (opts.ndjson) {
    for (const u of answer.data.users) io.printJsonLine(u);
    return;
  }
  io.print(answer.data, () => usersTable(io, answer.data.users));
}

async function search(query: string, opts: PagingOptions, deps: Deps): Promise<void> {
  const api = await deps.api('social');
  const io = deps.io();
  await walkPages(
    deps,
    opts,
    (cursor) => api.social.userSearch({ query, cursor }),
    (d) => ({ records: d.users, next: d.next_cursor }),
    (users: SocialUser[], last) =>
      io.print({ ...last, users }, () => {
        usersTable(io, users);
      }),
  );
}

async function tweets(name: string | undefined, opts: TweetsOptions, deps: Deps): Promise<void> {
  if ((name === undefined) === (opts.id === undefined)) throw usageError('give a username or --id ID (one of them)');
  const api = await deps.api('social');
  const io = deps.io();
  const who = name !== undefined ? { username: name.replace(/^@/, '') } : { social_user_id: opts.id };
  await walkPages(
    deps,
    opts,
    (cursor) => api.social.userTweets({ ...who, include_replies: opts.replies ?? false, limit: opts.limit, cursor }),
    (d) => ({ records: d.tweets, next: d.next_cursor }),
    (posts: SocialPost[], last) =>
      io.print({ ...last, tweets: posts }, () => {
        postsTable(io, posts, 'no posts');
      }),
  );
}

export function register(social: Command, deps: Deps): void {
  const users = social.command('users').description('Social users: profiles, search and timelines');
  pagingOptions(
    users
      .command('info')
      .argument('<username...>', 'usernames (with or without @)')
      .description('Profiles by username (1 credit per user returned)'),
  )
    .addHelpText('after', '\nExamples:\n  $ facet social users info kari12 @sato7')
    .action((names: string[], opts: PagingOptions) => info(names, opts, deps));
  pagingOptions(
    users
      .command('search')
      .argument('<query>', 'text in the username, name or bio')
      .description('Search users, most followed first (1 credit per user returned)'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet social users search coffee\n  $ facet social users search ka --all --json',
    )
    .action((query: string, opts: PagingOptions) => search(query, opts, deps));
  pagingOptions(
    users
      .command('tweets')
      .argument('[username]', 'the user (or --id)')
      .description("A user's posts, newest first (1 credit per post returned)")
      .option('--id <id>', 'the user by id instead of username')
      .option('--replies', 'include their replies')
      .option('--limit <n>', 'posts per page (1-100, default 20)', intOption(1, 100)),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet social users tweets kari12 --limit 5\n  $ facet social users tweets --id 1000037 --replies --all --ndjson',
    )
    .action((name: string | undefined, opts: TweetsOptions) => tweets(name, opts, deps));
}
