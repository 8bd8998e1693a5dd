import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { pagingFlags, readV2Pages, type PageFlags } from '../../v2-paging.js';
import { printLiveDocs } from '../../render/livedocs.js';

export interface ListOptions extends PageFlags {
  keyword?: string;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api('livedocs');
  printLiveDocs(
    deps.io(),
    await readV2Pages(deps, opts, (page, size) => api.livedocs.list({ keyword: opts.keyword, page, size })),
  );
}

export function register(parent: Command, deps: Deps): void {
  pagingFlags(
    parent
      .command('list')
      .alias('ls')
      .description('List your LiveDocs and those shared with you')
      .option('--keyword <text>', 'only names or descriptions containing this'),
    'LiveDocs',
  )
    .addHelpText('after', '\nExample:\n  $ facet livedocs list --keyword research --json | jq -r ".items[].short_id"')
    .action((opts: ListOptions) => run(opts, deps));
}
