import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { confirm } from '../../io/prompt.js';

export async function run(id: string, deps: Deps): Promise<void> {
  await confirm(deps, `Delete LiveDoc ${id} and all its resources?`);
  const api = await deps.api('livedocs');
  await api.livedocs.delete(id);
  deps.io().print({ short_id: id, deleted: true }, () => deps.io().success(`deleted LiveDoc ${id}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete')
    .alias('rm')
    .argument('<livedoc>', 'the LiveDoc id')
    .description('Delete a LiveDoc with its resources and their index')
    .addHelpText('after', '\nExample:\n  $ facet livedocs delete ld_0123456789abcdef --yes')
    .action((id: string) => run(id, deps));
}
