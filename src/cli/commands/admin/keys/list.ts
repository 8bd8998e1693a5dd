import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printKeys } from '../../../render/keys.js';
import { intOption } from '../../../io/parse.js';

interface ListOptions {
  user?: string;
  limit: number;
  cursor?: string;
  all?: boolean;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api('admin');
  const io = deps.io();
  const keys = [];
  let cursor = opts.cursor;
  do {
    const page = await api.admin.listKeys({ user_id: opts.user, limit: opts.limit, cursor });
    keys.push(...page.keys);
    cursor = page.nextCursor ?? undefined;
  } while (opts.all && cursor);
  printKeys(io, keys);
  if (cursor) io.info(`more keys follow: --cursor ${cursor} for the next page, or --all for every page`);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List the keys of every user, or of one, oldest first, a page at a time')
    .option('--user <user-id>', "only this user's keys")
    .option('--limit <n>', 'keys per page (1-500)', intOption(1, 500), 100)
    .option('--cursor <cursor>', 'start after the page that printed this cursor')
    .option('--all', 'follow every page')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet admin keys list --user usr_0123456789abcdef\n  $ facet admin keys list --all --json',
    )
    .action((opts: ListOptions) => run(opts, deps));
}
