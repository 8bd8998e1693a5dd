import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { printCreatedKey } from '../../render/keys.js';

export interface CreateOptions {
  name?: string;
  expiresInDays?: number;
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const api = await deps.api('keys');
  const created = await api.keys.create({ name: opts.name, expires_in_days: opts.expiresInDays });
  printCreatedKey(deps.io(), created);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .description('Create an API key; the full key is printed once')
    .option('--name <name>', 'a name to recognise the key by', undefined)
    .option('--expires-in-days <n>', 'expire the key after N days (1-3650)', intOption(1, 3650))
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet keys create --name laptop\n  $ KEY=$(facet keys create --name ci --expires-in-days 30)',
    )
    .action((opts: CreateOptions) => run(opts, deps));
}
