import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';

export async function run(opts: { livedoc?: string; page: number; size: number }, deps: Deps): Promise<void> {
  const api = await deps.api('conversations');
  const page = await api.conversations.list({ live_doc_short_id: opts.livedoc, page: opts.page, size: opts.size });
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
    if (page.page * page.size < page.total)
      io.info(`page ${page.page} of ${Math.ceil(page.total / page.size)}: --page ${page.page + 1} for more`);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List your conversations, most recently updated first')
    .option('--livedoc <id>', 'only those over this LiveDoc (ld_…)')
    .option('--page <n>', 'page number', intOption(1, 100_000), 1)
    .option('--size <n>', 'conversations per page (1-100)', intOption(1, 100), 20)
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet conversations list\n  $ facet conversations list --livedoc ld_0123456789abcdef --json --jq '.items[].thread_short_id'",
    )
    .action((opts: { livedoc?: string; page: number; size: number }) => run(opts, deps));
}
