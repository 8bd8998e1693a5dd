import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as list from './list.js';
import * as get from './get.js';

export function register(program: Command, deps: Deps): void {
  const models = program
    .command('models')
    .description('Models the platform offers: the model-calling catalog and the image-task models');
  for (const verb of [list, get]) verb.register(models, deps);
}
