import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as users from './users.js';
import * as search from './search.js';
import * as replies from './replies.js';

export function register(program: Command, deps: Deps): void {
  const social = program
    .command('social')
    .description('Social search: users, timelines, posts and replies (billed in credits; exit 5 on 402/429)');
  for (const verb of [users, search, replies]) verb.register(social, deps);
}
