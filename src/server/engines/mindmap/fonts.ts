import { existsSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { captionFonts } from '../illustration/fonts.js';

/**
 * The fonts a mindmap is measured AND drawn with: the same files for fontkit here and for resvg's
 * PNG, so a label measured to fit its box is drawn inside it. DejaVu Sans (Debian fonts-dejavu-core)
 * for Latin, Greek and Cyrillic; WenQuanYi Micro Hei (fonts-wqy-microhei) for the characters DejaVu
 * lacks (Chinese, Japanese, Korean).
 */
export const FONT_FAMILY = "'DejaVu Sans', 'WenQuanYi Micro Hei', sans-serif";
export const PRIMARY_FAMILY = 'DejaVu Sans';

const KNOWN = {
  regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  cjk: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
};

function find(known: string, pattern: RegExp): string | null {
  if (existsSync(known)) return known;
  return captionFonts().find((f) => pattern.test(f)) ?? null;
}

export interface FontFiles {
  regular: string | null;
  bold: string | null;
  cjk: string | null;
}

let files: FontFiles | undefined;

export function mindmapFontFiles(): FontFiles {
  files ??= { regular: find(KNOWN.regular, /DejaVuSans\.ttf$/), bold: find(KNOWN.bold, /DejaVuSans-Bold\.ttf$/), cjk: find(KNOWN.cjk, /wqy-microhei\.ttc$/) };
  return files;
}

/** The files resvg loads: exactly those measured with. */
export function renderFontFiles(): string[] {
  const f = mindmapFontFiles();
  return [f.regular, f.bold, f.cjk].filter((x): x is string => x !== null);
}

type Face = fontkit.Font;

function open(file: string | null): Face | null {
  if (!file) return null;
  try {
    const opened = fontkit.openSync(file) as Face | fontkit.FontCollection;
    // A .ttc holds several faces; the first is the proportional one (WenQuanYi Micro Hei).
    return 'fonts' in opened ? (opened.fonts[0] as Face) : opened;
  } catch {
    return null;
  }
}

let faces: { regular: Face | null; bold: Face | null; cjk: Face | null } | undefined;

function loaded() {
  if (!faces) {
    const f = mindmapFontFiles();
    faces = { regular: open(f.regular), bold: open(f.bold), cjk: open(f.cjk) };
  }
  return faces;
}

/** Vertical metrics of the primary font, as fractions of the font size (for baselines). */
export function ascentRatio(): number {
  const r = loaded().regular;
  return r ? r.ascent / r.unitsPerEm : 0.93;
}

const cache = new Map<string, number>();

/**
 * Width in pixels of `text` at `size`: runs of characters the primary face has are shaped with its
 * kerning, the others with the CJK face, as resvg falls back. Without any font file, a rough
 * estimate (0.6 em, 1 em for wide characters) keeps layouts non-overlapping all the same.
 */
export function textWidth(text: string, size: number, bold: boolean): number {
  const key = `${bold ? 'b' : 'r'}${size}|${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const f = loaded();
  const primary = (bold ? f.bold : f.regular) ?? f.regular;
  let units = 0;
  let run = '';
  let runFace: Face | null = null;
  const flush = () => {
    if (run && runFace) units += (runFace.layout(run).advanceWidth / runFace.unitsPerEm) * size;
    else if (run) for (const ch of run) units += (isWide(ch) ? 1 : 0.6) * size;
    run = '';
  };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const face = primary?.hasGlyphForCodePoint(cp) ? primary : f.cjk?.hasGlyphForCodePoint(cp) ? f.cjk : primary;
    if (face !== runFace) {
      flush();
      runFace = face;
    }
    run += ch;
  }
  flush();
  // Bold CJK is synthesised by resvg slightly wider than the regular face measures.
  const width = bold && f.cjk && /[\u2e80-\uffef]/.test(text) ? units * 1.04 : units;
  if (cache.size > 20_000) cache.clear();
  cache.set(key, width);
  return width;
}

/** Characters that break anywhere and take a full em: CJK ideographs, kana, hangul, full-width forms. */
export function isWide(ch: string): boolean {
  return /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch);
}

/** Text cut into pieces a line may break after: words with their trailing space, or single wide characters. */
function breakable(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of text) {
    if (isWide(ch)) {
      if (word) out.push(word);
      word = '';
      out.push(ch);
    } else if (ch === ' ') {
      out.push(word + ' ');
      word = '';
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

/**
 * Wraps a label into lines no wider than `max` pixels, with explicit breaks (SVG text does not wrap).
 * A word longer than a line is cut by characters. At most `maxLines`; the last one then ends in "…".
 */
export function wrapText(text: string, size: number, bold: boolean, max: number, maxLines = 6): string[] {
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim()) lines.push(line.trim());
    line = '';
  };
  for (const piece of breakable(text)) {
    if (textWidth((line + piece).trimEnd(), size, bold) <= max) {
      line += piece;
      continue;
    }
    push();
    if (textWidth(piece.trimEnd(), size, bold) <= max) {
      line = piece;
      continue;
    }
    // One word wider than the line: cut it by characters.
    for (const ch of piece) {
      if (line && textWidth((line + ch).trimEnd(), size, bold) > max) push();
      line += ch;
    }
  }
  push();
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1];
    while (last.length > 1 && textWidth(last + '…', size, bold) > max) last = [...last].slice(0, -1).join('').trimEnd();
    kept[maxLines - 1] = last + '…';
    return kept;
  }
  return lines.length > 0 ? lines : [''];
}
