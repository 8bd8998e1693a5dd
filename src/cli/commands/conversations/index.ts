import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as start from './start.js';
import * as followUp from './follow-up.js';
import * as get from './get.js';
import * as list from './list.js';
import * as stream from './stream.js';

export function register(program: Command, deps: Deps): void {
  const conversations = program
    .command('conversations')
    .description('Conversations over your LiveDocs, answered as a stream');
  for (const verb of [start, followUp, list, get, stream]) verb.register(conversations, deps);
}
