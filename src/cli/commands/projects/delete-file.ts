import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { confirm } from '../../io/prompt.js';

export async function run(id: string, fileId: string, deps: Deps): Promise<void> {
  await confirm(deps, `Delete file ${fileId} from project ${id}?`);
  const api = await deps.api('projects');
  await api.projects.deleteFile(id, fileId);
  deps.io().print({ id: fileId, deleted: true }, () => deps.io().success(`deleted file ${fileId}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete-file')
    .argument('<project-id>', 'the project id (prj_…)')
    .argument('<file-id>', 'the file id (file_…), from `facet projects files`')
    .description('Delete a file from a project')
    .addHelpText('after', '\nExample:\n  $ facet projects delete-file prj_0123456789abcdef file_0123456789abcdef --yes')
    .action((id: string, fileId: string) => run(id, fileId, deps));
}
