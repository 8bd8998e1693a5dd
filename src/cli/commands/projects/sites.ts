import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { SITE_COLUMNS } from '../../render/projects.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const sites = await api.projects.sites(id);
  const io = deps.io();
  io.print(sites, () =>
    io.table(sites, SITE_COLUMNS, { empty: 'No sites in this project: `facet projects add-site ID URL`.' }),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('sites')
    .argument('<project-id>', 'the project id (prj_…)')
    .description("List a project's sites (URLs whose pages serve as knowledge)")
    .addHelpText('after', '\nExample:\n  $ facet projects sites prj_0123456789abcdef')
    .action((id: string) => run(id, deps));
}
