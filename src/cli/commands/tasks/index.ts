import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as get from './get.js';
import * as wait from './wait.js';
import * as cancel from './cancel.js';
import * as retry from './retry.js';
import * as logs from './logs.js';
import * as files from './files.js';
import * as cat from './cat.js';
import * as download from './download.js';

export function register(program: Command, deps: Deps): void {
  const tasks = program
    .command('tasks')
    .description('Image tasks: illustrations and screenshots, their logs and artifacts');
  for (const verb of [list, create, get, wait, cancel, retry, logs, files, cat, download]) verb.register(tasks, deps);
}
