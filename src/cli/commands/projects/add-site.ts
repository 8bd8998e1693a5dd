import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printCreated } from '../../render/created.js';
import { SITE_COLUMNS, printRecord } from '../../render/projects.js';

export async function run(id: string, url: string, opts: { title?: string }, deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const site = await api.projects.addSite(id, { url, title: opts.title });
  printCreated(deps.io(), site, [site.id], () => printRecord(deps.io(), site, SITE_COLUMNS));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('add-site')
    .argument('<project-id>', 'the project id (prj_…)')
    .argument('<url>', 'an http(s) URL whose page serves as knowledge')
    .option('--title <title>', 'a title to recognise it by')
    .description('Add a site to a project; piped, prints only its id')
    .addHelpText(
      'after',
      '\nExample:\n  $ SITE=$(facet projects add-site prj_0123456789abcdef https://example.org/about)',
    )
    .action((id: string, url: string, opts: { title?: string }) => run(id, url, opts, deps));
}
