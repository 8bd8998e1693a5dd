import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(args: string[], opts: { livedoc?: string }, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const api = await deps.api('livedocs');
  printResource(deps.io(), await api.livedocs.resources.get(livedoc, rest[0]));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description('Show one resource')
    .option(...LIVEDOC_OPTION)
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources get ld_0123456789abcdef res_0123456789abcdef')
    .action((ids: string[], opts: { livedoc?: string }) => run(ids, opts, deps));
}
