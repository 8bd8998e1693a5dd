import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { registerTaskCommands } from '../doc-tasks/commands.js';
import * as create from './create.js';
import * as open from './open.js';
import { PAGES_GROUP } from './group.js';
import { savePage } from './save.js';

export function register(program: Command, deps: Deps): void {
  const pages = program
    .command('pages')
    .description('Landing pages: one self-contained HTML file written from a LiveDoc (billed in credits)');
  create.register(pages, deps);
  registerTaskCommands(pages, PAGES_GROUP, deps, {
    onCompleted: (record, out) => savePage(deps, record, out),
    outHelp: 'save the page to FILE',
  });
  open.register(pages, deps);
}
