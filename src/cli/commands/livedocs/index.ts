import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as get from './get.js';
import * as update from './update.js';
import * as del from './delete.js';
import * as resources from './resources/index.js';

export function register(program: Command, deps: Deps): void {
  const livedocs = program
    .command('livedocs')
    .description('LiveDocs: collections of pages and documents, searchable and citable');
  for (const verb of [list, create, get, update, del]) verb.register(livedocs, deps);
  resources.register(livedocs, deps);
}
