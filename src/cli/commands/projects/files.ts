import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { FILE_COLUMNS } from '../../render/projects.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const files = await api.projects.files(id);
  const io = deps.io();
  io.print(files, () => io.table(files, FILE_COLUMNS, { empty: 'No files in this project.' }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('files')
    .argument('<project-id>', 'the project id (prj_…)')
    .description("List a project's files")
    .addHelpText('after', '\nExample:\n  $ facet projects files prj_0123456789abcdef')
    .action((id: string) => run(id, deps));
}
