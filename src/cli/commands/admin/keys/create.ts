import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { intOption } from '../../../io/parse.js';
import { printCreatedKey } from '../../../render/keys.js';

export interface AdminCreateOptions {
  user: string;
  name?: string;
  expiresInDays?: number;
}

export async function run(opts: AdminCreateOptions, deps: Deps): Promise<void> {
  const api = await deps.api('admin');
  const created = await api.admin.createKey({
    user_id: opts.user,
    name: opts.name,
    expires_in_days: opts.expiresInDays,
  });
  printCreatedKey(deps.io(), created);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .description('Create a key for any user; the full key is printed once')
    .requiredOption('--user <user-id>', 'the user the key belongs to')
    .option('--name <name>', 'a name to recognise the key by')
    .option('--expires-in-days <n>', 'expire the key after N days (1-3650)', intOption(1, 3650))
    .addHelpText('after', '\nExample:\n  $ facet admin keys create --user usr_0123456789abcdef --name ci')
    .action((opts: AdminCreateOptions) => run(opts, deps));
}
