import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { printLiveDoc } from '../../render/livedocs.js';

export interface UpdateOptions {
  name?: string;
  description?: string;
}

export async function run(id: string, opts: UpdateOptions, deps: Deps): Promise<void> {
  if (opts.name === undefined && opts.description === undefined)
    throw usageError('nothing to change', 'pass --name and/or --description');
  const api = await deps.api('livedocs');
  printLiveDoc(deps.io(), await api.livedocs.update(id, { name: opts.name, description: opts.description }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('update')
    .argument('<livedoc>', 'the LiveDoc id')
    .description('Rename a LiveDoc or change its description')
    .option('--name <name>', 'the new name')
    .option('--description <text>', 'the new description')
    .addHelpText('after', '\nExample:\n  $ facet livedocs update ld_0123456789abcdef --name "Q3 research"')
    .action((id: string, opts: UpdateOptions) => run(id, opts, deps));
}
