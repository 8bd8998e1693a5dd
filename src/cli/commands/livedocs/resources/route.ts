import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { intOption } from '../../../io/parse.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(
  args: string[],
  opts: { livedoc?: string; max?: number; includeGenerated?: boolean },
  deps: Deps,
): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['QUERY']);
  const api = await deps.api('livedocs');
  const ids = await api.livedocs.resources.route(livedoc, {
    query: rest[0],
    max_resources: opts.max,
    ...(opts.includeGenerated ? { include_generated: true } : {}),
  });
  const io = deps.io();
  io.print(ids, () => (ids.length ? io.write(ids.join('\n') + '\n') : io.info('No resource matches.')));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('route')
    .argument('<args...>', '[LIVEDOC] QUERY')
    .description('The ids of the resources that best answer a query, best first')
    .option(...LIVEDOC_OPTION)
    .option('--max <n>', 'at most this many (1-50, default 5)', intOption(1, 50))
    .option('--include-generated', 'also the decks, pages and mindmaps facet generated (left out by default)')
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources route ld_x "pricing" --max 3')
    .action((args: string[], opts: { livedoc?: string; max?: number; includeGenerated?: boolean }) =>
      run(args, opts, deps),
    );
}
