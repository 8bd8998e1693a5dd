import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { PROJECT_COLUMNS, printRecord } from '../../render/projects.js';

export interface UpdateOptions {
  name?: string;
  description?: string;
  clearDescription?: boolean;
}

export async function run(id: string, opts: UpdateOptions, deps: Deps): Promise<void> {
  if (opts.name === undefined && opts.description === undefined && !opts.clearDescription) {
    throw usageError('nothing to change', 'pass --name, --description or --clear-description');
  }
  const api = await deps.api('projects');
  const project = await api.projects.update(id, {
    name: opts.name,
    description: opts.clearDescription ? null : opts.description,
  });
  printRecord(deps.io(), project, PROJECT_COLUMNS);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('update')
    .argument('<project-id>', 'the project id (prj_…)')
    .option('--name <name>', 'a new name')
    .option('--description <text>', 'a new description')
    // Both at once cannot both be meant: a usage error rather than one silently winning.
    .addOption(new Option('--clear-description', 'remove the description').conflicts('description'))
    .description('Rename a project or change its description')
    .addHelpText('after', '\nExample:\n  $ facet projects update prj_0123456789abcdef --name "Autumn campaign"')
    .action((id: string, opts: UpdateOptions) => run(id, opts, deps));
}
