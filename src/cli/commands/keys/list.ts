import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printKeys } from '../../render/keys.js';

export async function run(deps: Deps): Promise<void> {
  const api = await deps.api('keys');
  printKeys(deps.io(), await api.keys.list());
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List your API keys (metadata only; the full key is never shown again)')
    .addHelpText('after', '\nExample:\n  $ facet keys list --json | jq -r ".[].id"')
    .action(() => run(deps));
}
