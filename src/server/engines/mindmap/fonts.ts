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

/** The files the labels are measured with (tests have resvg set the SVG's text with exactly these). */
export function renderFontFiles(): string[] {
  const f = mindmapFontFiles();
  return [f.regular, f.bold, f.cjk].filter((x): x is string => x !== null);
}

type Face = fontkit.Font;

/** The three faces a map is set in. */
export type FaceName = 'regular' | 'bold' | 'cjk';

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
  glyphs: Array<{ face: FaceName; id: number; x: number; y: number; synthetic: boolean }>;
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

/**
 * One glyph's outline at one size, in tenths of a pixel relative to its origin on the baseline:
 * where its first contour starts, the rest as relative SVG commands, and where the pen ends (the
 * start of its last contour, as SVG's `Z` leaves it). Relative commands let a whole label's glyphs
 * be chained into one path with a single move per glyph (see OutlinePath).
 */
interface GlyphOutline {
  startX: number;
  startY: number;
  rest: string;
  endX: number;
  endY: number;
}

const outlines = new Map<string, GlyphOutline | null>();

function glyphOutline(face: FaceName, id: number, size: number): GlyphOutline | null {
  const key = `${face}${id}@${size}`;
  const hit = outlines.get(key);
  if (hit !== undefined) return hit;
  const font = loaded()[face]!;
  const scale = (size * 10) / font.unitsPerEm;
  // Absolute points are rounded to tenths first, so relative steps add up exactly (no drift).
  let cx = 0;
  let cy = 0;
  let subX = 0;
  let subY = 0;
  let first: [number, number] | null = null;
  let rest = '';
  const rel = (a: number[], j: number) => {
    const x = Math.round(a[j] * scale);
    const y = Math.round(-a[j + 1] * scale);
    return [x, y] as const;
  };
  const step = (x: number, y: number) => `${tenths(x - cx)} ${tenths(y - cy)}`;
  for (const c of font.getGlyph(id).path.commands as Array<{ command: string; args: number[] }>) {
    const a = c.args;
    if (c.command === 'moveTo') {
      const [x, y] = rel(a, 0);
      if (first === null) first = [x, y];
      else rest += `m${step(x, y)}`;
      cx = subX = x;
      cy = subY = y;
    } else if (c.command === 'lineTo') {
      const [x, y] = rel(a, 0);
      rest += `l${step(x, y)}`;
      cx = x;
      cy = y;
    } else if (c.command === 'quadraticCurveTo') {
      const [x1, y1] = rel(a, 0);
      const [x, y] = rel(a, 2);
      rest += `q${step(x1, y1)} ${step(x, y)}`;
      cx = x;
      cy = y;
    } else if (c.command === 'bezierCurveTo') {
      const [x1, y1] = rel(a, 0);
      const [x2, y2] = rel(a, 2);
      const [x, y] = rel(a, 4);
      rest += `c${step(x1, y1)} ${step(x2, y2)} ${step(x, y)}`;
      cx = x;
      cy = y;
    } else if (c.command === 'closePath') {
      rest += 'z';
      cx = subX;
      cy = subY;
    }
  }
  const outline = first === null ? null : { startX: first[0], startY: first[1], rest, endX: cx, endY: cy };
  if (outlines.size > 20_000) outlines.clear();
  outlines.set(key, outline);
  return outline;
}

/** A glyph's ink box in pixels (y up, origin on the baseline); null when it has no outline. */
export function glyphBox(face: FaceName, id: number, size: number): { minX: number; minY: number; maxX: number; maxY: number } | null {
  const font = loaded()[face];
  if (!font) return null;
  const glyph = font.getGlyph(id);
  if (glyph.path.commands.length === 0) return null;
  const b = glyph.path.bbox;
  const scale = size / font.unitsPerEm;
  return { minX: b.minX * scale, minY: b.minY * scale, maxX: b.maxX * scale, maxY: b.maxY * scale };
}

/** Tenths of a pixel as SVG text: 123 → "12.3", -5 → "-.5". */
function tenths(n: number): string {
  if (n === 0) return '0';
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  const whole = Math.floor(a / 10);
  const frac = a % 10;
  return frac === 0 ? `${sign}${whole}` : `${sign}${whole === 0 ? '' : whole}.${frac}`;
}

/**
 * Glyph outlines chained into ONE path (the glyph atlas of glyph-masks.ts): one move per glyph,
 * the outlines themselves as relative commands cached per glyph and size.
 */
export class OutlinePath {
  private d = '';
  private cx = 0;
  private cy = 0;
  /** Adds a glyph with its origin at (x, y) pixels. */
  add(face: FaceName, id: number, size: number, x: number, y: number): void {
    const g = glyphOutline(face, id, size);
    if (!g) return;
    const sx = Math.round(x * 10) + g.startX;
    const sy = Math.round(y * 10) + g.startY;
    this.d += this.d === '' ? `M${tenths(sx)} ${tenths(sy)}` : `m${tenths(sx - this.cx)} ${tenths(sy - this.cy)}`;
    this.d += g.rest;
    this.cx = sx - g.startX + g.endX;
    this.cy = sy - g.startY + g.endY;
  }
  get empty(): boolean {
    return this.d === '';
  }
  toString(): string {
    return this.d;
  }
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
