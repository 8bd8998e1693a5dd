import type * as fontkit from 'fontkit';
import { CJK_FALLBACK, FONT_FILES, openFace, type FontFamily } from '../fonts.js';

/**
 * Text measure for slides: each character's advance in the deck's family (the font files of
 * ../fonts.ts that LibreOffice renders it with), falling back to the CJK face.
 */
export type { FontFamily };

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
  const font = openFace(file);
  const m = font && {
    font,
    unitsPerEm: font.unitsPerEm,
    lineRatio: (font.ascent - font.descent + font.lineGap) / font.unitsPerEm,
    advances: new Map<number, number>(),
  };
  loaded.set(file, m);
  return m;
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
