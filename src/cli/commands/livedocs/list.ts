import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { printLiveDocs } from '../../render/livedocs.js';

export interface ListOptions {
  keyword?: string;
  page?: number;
  size?: number;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api('livedocs');
  printLiveDocs(deps.io(), await api.livedocs.list({ keyword: opts.keyword, page: opts.page, size: opts.size }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List your LiveDocs and those shared with you')
    .option('--keyword <text>', 'only names or descriptions containing this')
    .option('--page <n>', 'page, from 1', intOption(1, 100_000))
    .option('--size <n>', 'items per page (1-100, default 20)', intOption(1, 100))
    .addHelpText('after', '\nExample:\n  $ facet livedocs list --keyword research --json | jq -r ".items[].short_id"')
    .action((opts: ListOptions) => run(opts, deps));
}
