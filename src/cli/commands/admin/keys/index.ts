import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as freeze from './freeze.js';

export function register(admin: Command, deps: Deps): void {
  const keys = admin.command('keys').description("Any user's API keys");
  for (const verb of [list, create, del, freeze]) verb.register(keys, deps);
}
