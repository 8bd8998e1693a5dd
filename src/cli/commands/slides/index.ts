import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { registerTaskCommands } from '../doc-tasks/commands.js';
import type { TaskGroup } from '../doc-tasks/wait.js';
import * as themes from './themes/index.js';
import * as create from './create.js';
import * as download from './download.js';

const GROUP: TaskGroup = { command: 'slides', noun: 'slide' };

export function register(program: Command, deps: Deps): void {
  const slides = program
    .command('slides')
    .description('Slide decks (.pptx) from a LiveDoc: themes, create, follow, download');
  themes.register(slides, deps);
  create.register(slides, GROUP, deps);
  registerTaskCommands(slides, GROUP, deps, {
    onCompleted: async (record, out) => {
      if (out) await download.saveDeck(deps, record, out);
    },
    outHelp: 'save the deck (.pptx) to FILE once ready',
  });
  download.register(slides, deps);
}
