import type { FontFamily } from './fonts.js';

/** Localized strings of a theme (spec 2.6: title, subtitle, description are localized). */
export interface Localized {
  en: string;
  'zh-Hans': string;
}

/** Colours as 6-digit hex without '#', as DrawingML writes them. */
export interface Palette {
  background: string;
  /** Cards, bands and the chart area. */
  surface: string;
  text: string;
  muted: string;
  accent: string;
  accent2: string;
  /** Text drawn on the accent colour (title bands). */
  onAccent: string;
  /** Series colours of charts. */
  chart: string[];
}

/** How the slide background is composed. */
export type BackgroundStyle = 'solid' | 'band-left' | 'band-top' | 'frame' | 'split';
/** Where the title slide puts its text. */
export type TitleLayout = 'centered' | 'left' | 'band';
/** How points of a content slide are set off. */
export type BulletStyle = 'dot' | 'bar' | 'card';

/** A theme is data: the writer reads nothing else (docs/decisions.md "Slide decks"); the catalogue is themes.ts. */
export interface ThemeSpec {
  id: string;
  title: Localized;
  subtitle: Localized;
  description: Localized;
  palette: Palette;
  fonts: { heading: FontFamily; body: FontFamily };
  background: BackgroundStyle;
  titleLayout: TitleLayout;
  bulletStyle: BulletStyle;
}
