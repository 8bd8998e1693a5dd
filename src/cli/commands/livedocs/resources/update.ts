import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { usageError } from '../../../exit-codes.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface UpdateOptions {
  livedoc?: string;
  title?: string;
  snippet?: string;
  thumbnail?: string;
}

export async function run(args: string[], opts: UpdateOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  if (opts.title === undefined && opts.snippet === undefined && opts.thumbnail === undefined)
    throw usageError('nothing to change', 'pass --title, --snippet or --thumbnail');
  const api = await deps.api('livedocs');
  printResource(
    deps.io(),
    await api.livedocs.resources.update(livedoc, rest[0], {
      title: opts.title,
      snippet: opts.snippet,
      thumbnail: opts.thumbnail,
    }),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('update')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description("Change a resource's title (max 500), snippet (max 2000) or thumbnail URL (max 2000)")
    .option(...LIVEDOC_OPTION)
    .option('--title <text>', 'the new title')
    .option('--snippet <text>', 'the new summary')
    .option('--thumbnail <url>', 'the new thumbnail URL')
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources update ld_x res_y --title "Pricing page"')
    .action((ids: string[], opts: UpdateOptions) => run(ids, opts, deps));
}
