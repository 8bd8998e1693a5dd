import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { confirm } from '../../io/prompt.js';

export async function run(id: string, siteId: string, deps: Deps): Promise<void> {
  await confirm(deps, `Remove site ${siteId} from project ${id}?`);
  const api = await deps.api('projects');
  await api.projects.removeSite(id, siteId);
  deps.io().print({ id: siteId, deleted: true }, () => deps.io().success(`removed site ${siteId} from ${id}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('remove-site')
    .argument('<project-id>', 'the project id (prj_…)')
    .argument('<site-id>', 'the site id (site_…), from `facet projects sites`')
    .description('Remove a site from a project')
    .addHelpText('after', '\nExample:\n  $ facet projects remove-site prj_0123456789abcdef site_0123456789abcdef --yes')
    .action((id: string, siteId: string) => run(id, siteId, deps));
}
