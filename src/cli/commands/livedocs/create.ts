import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printCreated } from '../../render/created.js';
import { printLiveDoc } from '../../render/livedocs.js';

export interface CreateOptions {
  description?: string;
  icon?: string;
}

export async function run(name: string, opts: CreateOptions, deps: Deps): Promise<void> {
  const api = await deps.api('livedocs');
  const doc = await api.livedocs.create({ name, description: opts.description, icon: opts.icon });
  const io = deps.io();
  printCreated(io, doc, [doc.short_id], () => printLiveDoc(io, doc));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .argument('<name>', 'a name for the LiveDoc')
    .description('Create a LiveDoc (piped, prints only its id)')
    .option('--description <text>', 'what it is about')
    .option('--icon <icon>', 'an icon (emoji or URL)')
    .addHelpText(
      'after',
      '\nExample:\n  $ LD=$(facet livedocs create "Market research" --description "Competitors and pricing")',
    )
    .action((name: string, opts: CreateOptions) => run(name, opts, deps));
}
