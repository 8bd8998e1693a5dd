import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { collect, intOption } from '../../../io/parse.js';
import { printResources } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface ListOptions {
  livedoc?: string;
  type?: string[];
  page?: number;
  size?: number;
}

export async function run(args: string[], opts: ListOptions, deps: Deps): Promise<void> {
  const { livedoc } = target(args, opts, deps, []);
  const api = await deps.api('livedocs');
  printResources(
    deps.io(),
    await api.livedocs.resources.list(livedoc, { resource_types: opts.type, page: opts.page, size: opts.size }),
  );
}

export function register(parent: Command, deps: Deps): void {
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
    )
    .option('--page <n>', 'page, from 1', intOption(1, 100_000))
    .option('--size <n>', 'items per page (1-100, default 20)', intOption(1, 100))
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources list ld_0123456789abcdef --type web --type ai_doc')
    .action((livedoc: string | undefined, opts: ListOptions) => run(livedoc ? [livedoc] : [], opts, deps));
}
