import { existsSync } from 'node:fs';
import * as fontkit from 'fontkit';

/**
 * The font families a deck may use, each with the Debian font files LibreOffice renders it with,
 * so that text is measured with the very glyphs it is drawn with (docs/decisions.md "Slide decks").
 * CJK characters fall back to WenQuanYi Micro Hei, as LibreOffice's own fallback does on Debian.
 */
export const FONT_FILES = {
  Lato: {
    regular: '/usr/share/fonts/truetype/lato/Lato-Regular.ttf',
    bold: '/usr/share/fonts/truetype/lato/Lato-Bold.ttf',
  },
  'Open Sans': {
    regular: '/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf',
    bold: '/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf',
  },
  Carlito: {
    regular: '/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf',
    bold: '/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf',
  },
  Caladea: {
    regular: '/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf',
    bold: '/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf',
  },
  'Liberation Sans': {
    regular: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
    bold: '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
  },
  'Liberation Serif': {
    regular: '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
    bold: '/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf',
  },
  'DejaVu Sans': {
    regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  },
  'DejaVu Serif': {
    regular: '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
    bold: '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
  },
  'WenQuanYi Micro Hei': {
    regular: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
    bold: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  },
} as const;

export type FontFamily = keyof typeof FONT_FILES;
export const FONT_FAMILIES = Object.keys(FONT_FILES) as FontFamily[];
const CJK_FALLBACK: FontFamily = 'WenQuanYi Micro Hei';

interface Metrics {
  font: fontkit.Font;
  unitsPerEm: number;
  /** Natural line height as a multiple of the font size (ascent + descent + gap). */
  lineRatio: number;
  advances: Map<number, number>;
}

const loaded = new Map<string, Metrics | null>();

function open(file: string): Metrics | null {
  if (loaded.has(file)) return loaded.get(file)!;
  let m: Metrics | null = null;
  if (existsSync(file)) {
    const opened = fontkit.openSync(file);
    const font = 'fonts' in opened ? opened.fonts[0] : opened;
    m = {
      font,
      unitsPerEm: font.unitsPerEm,
      lineRatio: (font.ascent - font.descent + font.lineGap) / font.unitsPerEm,
      advances: new Map(),
    };
  }
  loaded.set(file, m);
  return m;
}

/** Whether the font files of a family are installed (fonts-* packages of Debian). */
export function fontInstalled(family: FontFamily): boolean {
  return open(FONT_FILES[family].regular) !== null;
}

function metricsFor(family: FontFamily, bold: boolean): Metrics {
  const m =
    open(FONT_FILES[family][bold ? 'bold' : 'regular']) ?? open(FONT_FILES['DejaVu Sans'][bold ? 'bold' : 'regular']);
  if (!m) throw new Error(`the font files of ${family} (and of the DejaVu fallback) are not installed`);
  return m;
}

/** Advance of one character in font units of its font (per em), falling back to the CJK font. */
function advanceEm(m: Metrics, cp: number, bold: boolean): number {
  const cached = m.advances.get(cp);
  if (cached !== undefined) return cached;
  let em: number;
  if (m.font.hasGlyphForCodePoint(cp)) em = m.font.glyphForCodePoint(cp).advanceWidth / m.unitsPerEm;
  else {
    const fb = metricsFor(CJK_FALLBACK, bold);
    em = fb.font.hasGlyphForCodePoint(cp) ? fb.font.glyphForCodePoint(cp).advanceWidth / fb.unitsPerEm : 1;
  }
  m.advances.set(cp, em);
  return em;
}

export interface TextStyle {
  family: FontFamily;
  bold: boolean;
  /** Points. */
  size: number;
}

/**
 * Width of a text in points. Kerning is left out: it only ever narrows Latin text, so the measure
 * errs on the wide side, which is the safe side for "never overflows".
 */
export function textWidth(text: string, style: TextStyle): number {
  const m = metricsFor(style.family, style.bold);
  let em = 0;
  for (const ch of text) em += advanceEm(m, ch.codePointAt(0)!, style.bold);
  return em * style.size;
}

/**
 * The exact line pitch (points) a text box of this style is written with: the font's natural
 * height, rounded up, so both PowerPoint and LibreOffice lay lines at the same pitch the measure uses.
 */
export function linePitch(style: TextStyle): number {
  const ratio = Math.max(
    metricsFor(style.family, style.bold).lineRatio,
    metricsFor(CJK_FALLBACK, false).lineRatio,
    1.15,
  );
  return Math.ceil(style.size * ratio * 2) / 2;
}
