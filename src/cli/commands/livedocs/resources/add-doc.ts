import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';
import { markdownFrom } from './source.js';

export interface AddDocOptions {
  livedoc?: string;
  title?: string;
  file?: string;
  content?: string;
}

export async function run(args: string[], opts: AddDocOptions, deps: Deps): Promise<void> {
  const { livedoc } = target(args, opts, deps, []);
  const content = await markdownFrom(opts, deps);
  const api = await deps.api('livedocs');
  const resource = await api.livedocs.resources.addDoc(livedoc, { title: opts.title, content });
  printCreated(deps.io(), resource, [resource.id], () => printResource(deps.io(), resource));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('add-doc')
    .argument('[livedoc]', 'the LiveDoc id')
    .description('Create an ai_doc resource from Markdown; piped, prints only its id')
    .option(...LIVEDOC_OPTION)
    .option('--title <text>', 'the title (default: New Document)')
    .option('--file <path>', 'read the Markdown from a file, or - for stdin')
    .option('--content <markdown>', 'the Markdown itself')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet livedocs resources add-doc ld_x --title Notes --file notes.md\n  $ echo "# Hi" | facet livedocs resources add-doc ld_x --file -',
    )
    .action((livedoc: string | undefined, opts: AddDocOptions) => run(livedoc ? [livedoc] : [], opts, deps));
}
