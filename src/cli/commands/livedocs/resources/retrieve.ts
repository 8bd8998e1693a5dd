import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { usageError } from '../../../exit-codes.js';
import { collect, intOption } from '../../../io/parse.js';
import { printRetrieved } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface RetrieveOptions {
  livedoc?: string;
  resource?: string[];
  top?: number;
  includeGenerated?: boolean;
}

export async function run(args: string[], opts: RetrieveOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['QUERY']);
  if (opts.resource && opts.resource.length > 50) throw usageError('at most 50 --resource');
  const api = await deps.api('livedocs');
  printRetrieved(
    deps.io(),
    await api.livedocs.resources.retrieve(livedoc, {
      query: rest[0],
      resource_ids: opts.resource,
      top_k: opts.top,
      ...(opts.includeGenerated ? { include_generated: true } : {}),
    }),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('retrieve')
    .argument('<args...>', '[LIVEDOC] QUERY')
    .description('Ranked excerpts that match a query (from the given resources, or routed from the query)')
    .option(...LIVEDOC_OPTION)
    .option('--resource <id>', 'search only this resource; repeatable (1-50)', collect)
    .option('--top <n>', 'how many excerpts (1-50, default 10)', intOption(1, 50))
    .option('--include-generated', 'also search the decks, pages and mindmaps facet generated (left out by default)')
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources retrieve ld_x "refund policy for annual plans"')
    .action((args: string[], opts: RetrieveOptions) => run(args, opts, deps));
}
