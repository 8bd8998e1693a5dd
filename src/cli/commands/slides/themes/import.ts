import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { printTheme } from './show.js';

export async function run(file: string, opts: { title?: string }, deps: Deps): Promise<void> {
  const api = await deps.api('slides');
  const theme = await api.slides.importTheme(file, opts.title);
  const io = deps.io();
  printCreated(io, theme, [theme.id], () => printTheme(io, theme));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('import')
    .argument('<file>', 'a PowerPoint presentation or template (.pptx, .potx)')
    .description("Create a custom theme from a template's colours and fonts (piped, prints only its id)")
    .option('--title <text>', "the theme's name (default: the template's theme name)")
    .addHelpText(
      'after',
      '\nFonts are drawn with free metric-compatible ones (Calibri as Carlito, Arial as Liberation Sans, ...);\nthe description says which.\n\nExample:\n  $ facet slides themes import brand.potx --title "Brand 2026"',
    )
    .action((file: string, opts: { title?: string }) => run(file, opts, deps));
}
