import type { Theme } from '../../../../contract/slides.js';
import type { IO } from '../../../io/output.js';

/** A theme for people: its id, look and fonts. */
export function printTheme(io: IO, t: Theme): void {
  const pairs: Array<[string, unknown]> = [
    ['id', t.id],
    ['title', t.title],
    ['type', t.type],
    [
      'colors',
      `background ${t.colors.background}, text ${t.colors.text}, accent ${t.colors.accent}, accent2 ${t.colors.accent2}`,
    ],
    [
      'fonts',
      t.fonts.heading === t.fonts.body ? t.fonts.heading : `${t.fonts.heading} (headings), ${t.fonts.body} (body)`,
    ],
    ['preview', t.preview_url],
  ];
  if (t.description) pairs.splice(5, 0, ['description', t.description]);
  io.fields(pairs);
}
