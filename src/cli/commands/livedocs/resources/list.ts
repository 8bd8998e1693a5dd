import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { collect } from '../../../io/parse.js';
import { pagingFlags, readV2Pages, type PageFlags } from '../../../v2-paging.js';
import { printResources } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface ListOptions extends PageFlags {
  livedoc?: string;
  type?: string[];
}

export async function run(args: string[], opts: ListOptions, deps: Deps): Promise<void> {
  const { livedoc } = target(args, opts, deps, []);
  const api = await deps.api('livedocs');
  printResources(
    deps.io(),
    await readV2Pages(deps, opts, (page, size) =>
      api.livedocs.resources.list(livedoc, { resource_types: opts.type, page, size }),
    ),
  );
}

export function register(parent: Command, deps: Deps): void {
  pagingFlags(
    parent
      .command('list')
      .alias('ls')
      .argument('[livedoc]', 'the LiveDoc id')
      .description('List the resources of a LiveDoc')
      .option(...LIVEDOC_OPTION)
      .addOption(
        new Option('--type <type>', 'only this resource_type (web, ai_doc, file); repeatable')
          .choices(['web', 'ai_doc', 'file'])
          .argParser(collect),
      ),
    'resources',
  )
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources list ld_0123456789abcdef --type web --type ai_doc')
    .action((livedoc: string | undefined, opts: ListOptions) => run(livedoc ? [livedoc] : [], opts, deps));
}
