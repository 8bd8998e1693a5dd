import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as themes from './themes.js';

export function register(program: Command, deps: Deps): void {
  const slides = program.command('slides').description('Slide decks (.pptx) from a LiveDoc: themes, create, follow, download');
  themes.register(slides, deps);
}
