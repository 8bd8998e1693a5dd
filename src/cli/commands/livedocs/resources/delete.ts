import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { confirm } from '../../../io/prompt.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(args: string[], opts: { livedoc?: string }, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  await confirm(deps, `Delete resource ${rest[0]}?`);
  const api = await deps.api('livedocs');
  await api.livedocs.resources.delete(livedoc, rest[0]);
  deps.io().print({ id: rest[0], deleted: true }, () => deps.io().success(`deleted resource ${rest[0]}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete')
    .alias('rm')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description('Delete a resource; it leaves the search index at once')
    .option(...LIVEDOC_OPTION)
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources delete ld_x res_y --yes')
    .action((ids: string[], opts: { livedoc?: string }) => run(ids, opts, deps));
}
