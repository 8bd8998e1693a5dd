import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as del from './delete.js';

export function register(program: Command, deps: Deps): void {
  const keys = program.command('keys').description('Manage your API keys (needs an access token)');
  for (const verb of [list, create, del]) verb.register(keys, deps);
}
