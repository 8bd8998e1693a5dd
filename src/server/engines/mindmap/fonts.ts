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

/** A run of characters set in one face: the face and the text, in order. */
function runsOf(text: string, bold: boolean): Array<{ face: Face | null; text: string; fallback: boolean }> {
  const f = loaded();
  const primary = (bold ? f.bold : f.regular) ?? f.regular;
  const runs: Array<{ face: Face | null; text: string; fallback: boolean }> = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const fallback = !primary?.hasGlyphForCodePoint(cp) && !!f.cjk?.hasGlyphForCodePoint(cp);
    const face = fallback ? f.cjk : primary;
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += ch;
    else runs.push({ face, text: ch, fallback });
  }
  return runs;
}

/** Synthesised bold: a fallback face without a bold style is drawn with an outline this wide (em). */
export const SYNTHETIC_BOLD = 0.04;

/** A line set in its faces: each glyph's face, id and pen position (pixels from the line's start). */
export interface ShapedLine {
  width: number;
  glyphs: Array<{ face: 'regular' | 'bold' | 'cjk'; id: number; x: number; y: number; synthetic: boolean }>;
}

function faceKey(face: Face): 'regular' | 'bold' | 'cjk' {
  const f = loaded();
  return face === f.bold ? 'bold' : face === f.cjk ? 'cjk' : 'regular';
}

const shapedCache = new Map<string, ShapedLine>();

/**
 * Sets `text` at `size`: runs of characters the primary face has are shaped with its kerning, the
 * others with the CJK face, as the drawing sets them. Without any font file, a rough estimate
 * (0.6 em, 1 em for wide characters) keeps layouts non-overlapping all the same.
 */
export function shapeLine(text: string, size: number, bold: boolean): ShapedLine {
  const key = `${bold ? 'b' : 'r'}${size}|${text}`;
  const hit = shapedCache.get(key);
  if (hit) return hit;
  const glyphs: ShapedLine['glyphs'] = [];
  let pen = 0;
  for (const run of runsOf(text, bold)) {
    if (!run.face) {
      for (const ch of run.text) pen += (isWide(ch) ? 1 : 0.6) * size;
      continue;
    }
    const scale = size / run.face.unitsPerEm;
    const synthetic = bold && run.fallback;
    // A synthesised bold run is a little wider: its outline grows each glyph by half the stroke.
    const shift = synthetic ? (SYNTHETIC_BOLD * size) / 2 : 0;
    pen += shift;
    const laid = run.face.layout(run.text);
    const key = faceKey(run.face);
    for (let i = 0; i < laid.glyphs.length; i++) {
      const pos = laid.positions[i];
      glyphs.push({ face: key, id: laid.glyphs[i].id, x: pen + pos.xOffset * scale, y: -pos.yOffset * scale, synthetic });
      pen += pos.xAdvance * scale;
    }
    pen += shift;
  }
  const shaped = { width: pen, glyphs };
  if (shapedCache.size > 20_000) shapedCache.clear();
  shapedCache.set(key, shaped);
  return shaped;
}

export function textWidth(text: string, size: number, bold: boolean): number {
  return shapeLine(text, size, bold).width;
}

const r1 = (n: number) => {
  const v = Math.round(n * 10) / 10;
  return (Object.is(v, -0) ? 0 : v).toString();
};

const glyphPaths = new Map<string, string>();

/** One glyph's outline as SVG path data in pixels, its origin on the baseline (cached). */
export function glyphPath(face: 'regular' | 'bold' | 'cjk', id: number, size: number): string {
  const key = `${face}${id}@${size}`;
  const hit = glyphPaths.get(key);
  if (hit !== undefined) return hit;
  const font = loaded()[face]!;
  const scale = size / font.unitsPerEm;
  const pt = (a: number[], j: number) => `${r1(a[j] * scale)} ${r1(-a[j + 1] * scale)}`;
  let d = '';
  for (const c of font.getGlyph(id).path.commands as Array<{ command: string; args: number[] }>) {
    const a = c.args;
    if (c.command === 'moveTo') d += `M${pt(a, 0)}`;
    else if (c.command === 'lineTo') d += `L${pt(a, 0)}`;
    else if (c.command === 'quadraticCurveTo') d += `Q${pt(a, 0)} ${pt(a, 2)}`;
    else if (c.command === 'bezierCurveTo') d += `C${pt(a, 0)} ${pt(a, 2)} ${pt(a, 4)}`;
    else if (c.command === 'closePath') d += 'Z';
  }
  if (glyphPaths.size > 20_000) glyphPaths.clear();
  glyphPaths.set(key, d);
  return d;
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
