import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printLiveDoc } from '../../render/livedocs.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('livedocs');
  printLiveDoc(deps.io(), await api.livedocs.get(id));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<livedoc>', 'the LiveDoc id (ld_…)')
    .description('Show one LiveDoc with its readme')
    .addHelpText('after', '\nExample:\n  $ facet livedocs get ld_0123456789abcdef --json')
    .action((id: string) => run(id, deps));
}
