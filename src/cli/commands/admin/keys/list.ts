import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printKeys } from '../../../render/keys.js';

export async function run(opts: { user?: string }, deps: Deps): Promise<void> {
  const api = await deps.api();
  printKeys(deps.io(), await api.admin.listKeys(opts.user));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List the keys of every user, or of one')
    .option('--user <user-id>', "only this user's keys")
    .addHelpText('after', '\nExample:\n  $ facet admin keys list --user usr_0123456789abcdef')
    .action((opts: { user?: string }) => run(opts, deps));
}
