import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printResource } from '../../../render/livedocs.js';
import { LIVEDOC_OPTION, target } from '../target.js';
import { markdownFrom } from './source.js';

export interface SetContentOptions {
  livedoc?: string;
  file?: string;
  content?: string;
}

export async function run(args: string[], opts: SetContentOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const content = await markdownFrom(opts, deps);
  const api = await deps.api('livedocs');
  printResource(deps.io(), await api.livedocs.resources.setContent(livedoc, rest[0], content));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('set-content')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description("Replace an ai_doc's Markdown (its snippet is refreshed and it is re-indexed)")
    .option(...LIVEDOC_OPTION)
    .option('--file <path>', 'read the Markdown from a file, or - for stdin')
    .option('--content <markdown>', 'the Markdown itself')
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources set-content ld_x res_y --file notes.md')
    .action((ids: string[], opts: SetContentOptions) => run(ids, opts, deps));
}
