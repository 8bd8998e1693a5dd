import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(args: string[], opts: { livedoc?: string; title?: string }, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['FILE']);
  const api = await deps.api('livedocs');
  const resource = await api.livedocs.resources.uploadDoc(livedoc, rest[0], opts.title);
  printCreated(deps.io(), resource, [resource.id], () => printResource(deps.io(), resource));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('upload-doc')
    .argument('<args...>', '[LIVEDOC] FILE')
    .description(
      'Convert a file (Markdown, text, HTML, PDF, DOCX, PPTX) into an editable ai_doc; piped, prints only its id',
    )
    .option(...LIVEDOC_OPTION)
    .option('--title <text>', 'the title (default: from the document)')
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources upload-doc ld_x spec.docx --title "Product spec"')
    .action((args: string[], opts: { livedoc?: string; title?: string }) => run(args, opts, deps));
}
