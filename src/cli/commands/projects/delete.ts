import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { confirm } from '../../io/prompt.js';

export async function run(id: string, deps: Deps): Promise<void> {
  await confirm(deps, `Delete project ${id} with its files, sites, tasks and outputs?`);
  const api = await deps.api('projects');
  await api.projects.delete(id);
  deps.io().print({ id, deleted: true }, () => deps.io().success(`deleted project ${id}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete')
    .alias('rm')
    .argument('<project-id>', 'the project id (prj_…)')
    .description('Delete a project with its files, sites, tasks and outputs (refused while a task of it runs)')
    .addHelpText('after', '\nExample:\n  $ facet projects delete prj_0123456789abcdef --yes')
    .action((id: string) => run(id, deps));
}
