import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import * as list from './list.js';
import * as visibility from './visibility.js';

export function register(parent: Command, deps: Deps): void {
  const models = parent.command('models').description('The model catalog: which models callers can discover and call');
  list.register(models, deps);
  visibility.register(models, deps);
}
