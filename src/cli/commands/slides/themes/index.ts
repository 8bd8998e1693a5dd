import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as importTheme from './import.js';
import * as remove from './delete.js';

export function register(parent: Command, deps: Deps): void {
  const themes = parent
    .command('themes')
    .description('Slide themes: list them (the default), create, import from a template, delete your own');
  list.register(themes, deps);
  create.register(themes, deps);
  importTheme.register(themes, deps);
  remove.register(themes, deps);
}
