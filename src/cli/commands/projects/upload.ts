import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printCreated } from '../../render/created.js';
import { FILE_COLUMNS } from '../../render/projects.js';

export async function run(id: string, files: string[], deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const { files: stored } = await api.projects.upload(id, files);
  const io = deps.io();
  printCreated(
    io,
    stored,
    stored.map((f) => f.id),
    () => io.table(stored, FILE_COLUMNS),
  );
  io.success(`uploaded ${stored.length} file(s) to ${id}`);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('upload')
    .argument('<project-id>', 'the project id (prj_…)')
    .argument('<file...>', 'files to upload')
    .description('Upload files to a project; piped, prints only their ids')
    .addHelpText('after', '\nExample:\n  $ facet projects upload prj_0123456789abcdef brief.md logo.png')
    .action((id: string, files: string[]) => run(id, files, deps));
}
