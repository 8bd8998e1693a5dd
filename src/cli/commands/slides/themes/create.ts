import { Option, type Command } from 'commander';
import { THEME_FONTS } from '../../../../contract/slides.js';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { printTheme } from './show.js';

export interface CreateThemeOptions {
  background: string;
  text: string;
  accent: string;
  accent2?: string;
  muted?: string;
  surface?: string;
  headingFont: (typeof THEME_FONTS)[number];
  bodyFont: (typeof THEME_FONTS)[number];
  backdrop?: 'solid' | 'band-left' | 'band-top' | 'frame' | 'split';
  titleLayout?: 'centered' | 'left' | 'band';
  bulletStyle?: 'dot' | 'bar' | 'card';
  subtitle?: string;
  description?: string;
}

export async function run(title: string, o: CreateThemeOptions, deps: Deps): Promise<void> {
  const api = await deps.api('slides');
  const theme = await api.slides.createTheme({
    title,
    subtitle: o.subtitle,
    description: o.description,
    colors: {
      background: o.background,
      text: o.text,
      accent: o.accent,
      accent2: o.accent2,
      muted: o.muted,
      surface: o.surface,
    },
    fonts: { heading: o.headingFont, body: o.bodyFont },
    background: o.backdrop ?? 'solid',
    title_layout: o.titleLayout ?? 'left',
    bullet_style: o.bulletStyle ?? 'dot',
  });
  const io = deps.io();
  printCreated(io, theme, [theme.id], () => printTheme(io, theme));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .argument('<title>', "the theme's name")
    .description('Create a custom theme from colours and fonts (piped, prints only its id)')
    .requiredOption('--background <hex>', 'slide background colour, e.g. #FFFFFF')
    .requiredOption('--text <hex>', 'text colour (needs 4.5:1 contrast on the background)')
    .requiredOption('--accent <hex>', 'accent colour (titles band, charts)')
    .option('--accent2 <hex>', 'second accent (default: a blend of accent and background)')
    .option('--muted <hex>', 'secondary text (needs 3:1 contrast)')
    .option('--surface <hex>', 'cards and panels')
    .addOption(new Option('--heading-font <font>', 'font of titles').choices(THEME_FONTS).default('Lato'))
    .addOption(new Option('--body-font <font>', 'font of body text').choices(THEME_FONTS).default('Open Sans'))
    .addOption(
      new Option('--backdrop <style>', 'background shape').choices([
        'solid',
        'band-left',
        'band-top',
        'frame',
        'split',
      ]),
    )
    .addOption(new Option('--title-layout <layout>', 'where titles sit').choices(['centered', 'left', 'band']))
    .addOption(new Option('--bullet-style <style>', 'how points are marked').choices(['dot', 'bar', 'card']))
    .option('--subtitle <text>', 'a subtitle')
    .option('--description <text>', 'a description')
    .addHelpText(
      'after',
      '\nExample:\n  $ THEME=$(facet slides themes create "Harbour" --background "#F7FAFC" --text "#1A202C" --accent "#2B6CB0")',
    )
    .action((title: string, o: CreateThemeOptions) => run(title, o, deps));
}
