import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { pagingFlags, readV2Pages, type PageFlags } from '../../v2-paging.js';

export async function run(opts: PageFlags & { livedoc?: string }, deps: Deps): Promise<void> {
  const api = await deps.api('conversations');
  const page = await readV2Pages(deps, opts, (n, size) =>
    api.conversations.list({ live_doc_short_id: opts.livedoc, page: n, size }),
  );
  const io = deps.io();
  io.print(page, () => {
    io.table(
      page.items,
      [
        { header: 'THREAD ID', value: (t) => t.thread_short_id },
        { header: 'TITLE', value: (t) => t.title },
        { header: 'TURNS', value: (t) => t.turn_count },
        { header: 'LIVEDOC ID', value: (t) => t.live_doc_short_id },
        { header: 'UPDATED', value: (t) => t.updated_at },
      ],
      { empty: 'no conversations yet: `facet ask "…"` starts one' },
    );
  });
}

export function register(parent: Command, deps: Deps): void {
  pagingFlags(
    parent
      .command('list')
      .alias('ls')
      .description('List your conversations, most recently updated first')
      .option('--livedoc <id>', 'only those over this LiveDoc (ld_…)'),
    'conversations',
  )
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet conversations list\n  $ facet conversations list --livedoc ld_0123456789abcdef --json --jq '.items[].thread_short_id'",
    )
    .action((opts: PageFlags & { livedoc?: string }) => run(opts, deps));
}
