import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { intOption } from '../../../io/parse.js';
import { printRetrieved } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface PptOptions {
  livedoc?: string;
  page: number;
  query?: string;
}

export async function run(args: string[], opts: PptOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const api = await deps.api('livedocs');
  printRetrieved(
    deps.io(),
    await api.livedocs.resources.pptRetrieve(livedoc, {
      resource_id: rest[0],
      page_number: opts.page,
      query: opts.query,
    }),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('ppt-retrieve')
    .argument('<ids...>', '[LIVEDOC] RESOURCE (a .pptx deck)')
    .description('Ranked text chunks of one slide of a deck')
    .option(...LIVEDOC_OPTION)
    .requiredOption('--page <n>', 'the slide number, from 1', intOption(1, 10_000))
    .option('--query <text>', "rank against this (default: the slide's title)")
    .addHelpText(
      'after',
      '\nExample:\n  $ facet livedocs resources ppt-retrieve ld_x res_deck --page 3 --query revenue',
    )
    .action((ids: string[], opts: PptOptions) => run(ids, opts, deps));
}
