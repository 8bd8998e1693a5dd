import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printCreated } from '../../render/created.js';
import { PROJECT_COLUMNS, printRecord } from '../../render/projects.js';

export async function run(name: string, opts: { description?: string }, deps: Deps): Promise<void> {
  const api = await deps.api('projects');
  const project = await api.projects.create({ name, description: opts.description });
  printCreated(deps.io(), project, [project.id], () => printRecord(deps.io(), project, PROJECT_COLUMNS));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .argument('<name>', 'the project name (1-200 characters)')
    .option('--description <text>', 'what the project is for')
    .description('Create a project; piped, prints only its id')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet projects create "Spring campaign" --description "banners"\n  $ PROJECT=$(facet projects create docs)',
    )
    .action((name: string, opts: { description?: string }) => run(name, opts, deps));
}
