import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { PROJECT_COLUMNS } from '../../render/projects.js';

export async function run(deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const list = await api.projects.list();
  const io = deps.io();
  io.print(list, () => io.table(list, PROJECT_COLUMNS, { empty: 'No projects yet: `facet projects create NAME`.' }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List your projects')
    .addHelpText('after', '\nExample:\n  $ facet projects list --json | jq -r ".[].id"')
    .action(() => run(deps));
}
