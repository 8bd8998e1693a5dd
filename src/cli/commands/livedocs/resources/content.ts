import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export async function run(args: string[], opts: { livedoc?: string }, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const api = await deps.api('livedocs');
  const content = await api.livedocs.resources.content(livedoc, rest[0]);
  const io = deps.io();
  io.print(content, () => io.write(content.content.endsWith('\n') ? content.content : content.content + '\n'));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('content')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description('Print the extracted text of a resource (Markdown for documents)')
    .option(...LIVEDOC_OPTION)
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources content ld_x res_y > page.md')
    .action((ids: string[], opts: { livedoc?: string }) => run(ids, opts, deps));
}
