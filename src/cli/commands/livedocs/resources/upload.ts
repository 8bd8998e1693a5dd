import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(args: string[], opts: { livedoc?: string }, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['FILE']);
  const api = await deps.api('livedocs');
  const resource = await api.livedocs.resources.upload(livedoc, rest[0]);
  printCreated(deps.io(), resource, [resource.id], () => printResource(deps.io(), resource));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('upload')
    .argument('<args...>', '[LIVEDOC] FILE')
    .description(
      'Upload a file as it is (downloadable; its text is indexed when it has any); piped, prints only its id',
    )
    .option(...LIVEDOC_OPTION)
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources upload ld_x report.pdf')
    .action((args: string[], opts: { livedoc?: string }) => run(args, opts, deps));
}
