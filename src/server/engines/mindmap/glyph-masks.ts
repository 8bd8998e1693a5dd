import { Resvg } from '@resvg/resvg-js';
import { glyphBox, OutlinePath, SYNTHETIC_BOLD, type FaceName } from './fonts.js';

/**
 * Anti-aliased coverage masks of glyphs, as a text renderer keeps them: each glyph at each size and
 * quarter-pixel horizontal offset is rasterised once (by resvg, from the outline of the very font
 * it was measured with) and then only blended wherever it appears. A 200-node map sets about 6,000
 * glyphs from fewer than 300 distinct masks; resvg filling 6,000 outlines was half of its PNG time.
 * Baselines are set on whole pixels (as hinted text is), horizontal positions to a quarter pixel.
 */
export interface GlyphMask {
  width: number;
  height: number;
  /** Where the glyph's origin (pen position on the baseline) lies in the mask, in whole pixels. */
  originX: number;
  originY: number;
  alpha: Uint8Array;
}

export interface GlyphKey {
  face: FaceName;
  id: number;
  size: number;
  /** Drawn with a stroke as well (a bold run in a face without bold). */
  synthetic: boolean;
}

/** Quarter-pixel steps of the horizontal position. */
export const SUBPIXEL_STEPS = 4;

const masks = new Map<string, GlyphMask | null>();
const MAX_MASKS = 20_000;
const ATLAS_WIDTH = 1024;

const keyOf = (g: GlyphKey, step: number) => `${g.face}${g.id}@${g.size}${g.synthetic ? 's' : ''}/${step}`;

/** The mask of a glyph at one quarter-pixel step; null for a glyph with no outline (a space). */
export function maskOf(g: GlyphKey, step: number): GlyphMask | null {
  const mask = masks.get(keyOf(g, step));
  if (mask === undefined) throw new Error('glyph mask not prepared: call prepareMasks first');
  return mask;
}

/**
 * Rasterises, in one resvg call, every mask the given glyphs need that is not cached yet: the
 * glyphs are laid out on an atlas, each in its own padded cell, and cut out of it afterwards.
 */
export function prepareMasks(wanted: Iterable<{ glyph: GlyphKey; step: number }>): void {
  const cells: Array<{ key: string; glyph: GlyphKey; step: number; x: number; y: number; w: number; h: number; ox: number; oy: number }> = [];
  const queued = new Set<string>();
  let penX = 0;
  let penY = 0;
  let rowHeight = 0;
  for (const { glyph, step } of wanted) {
    const key = keyOf(glyph, step);
    if (masks.has(key) || queued.has(key)) continue;
    queued.add(key);
    const box = glyphBox(glyph.face, glyph.id, glyph.size);
    if (!box) {
      masks.set(key, null);
      continue;
    }
    // Room for anti-aliasing, the synthetic stroke and the sub-pixel shift.
    const pad = 2 + (glyph.synthetic ? Math.ceil((SYNTHETIC_BOLD * glyph.size) / 2) : 0);
    const left = Math.floor(box.minX) - pad;
    const right = Math.ceil(box.maxX) + pad + 1;
    const top = Math.floor(-box.maxY) - pad;
    const bottom = Math.ceil(-box.minY) + pad;
    const w = right - left;
    const h = bottom - top;
    if (penX + w > ATLAS_WIDTH && penX > 0) {
      penX = 0;
      penY += rowHeight;
      rowHeight = 0;
    }
    cells.push({ key, glyph, step, x: penX, y: penY, w, h, ox: -left, oy: -top });
    penX += w;
    rowHeight = Math.max(rowHeight, h);
  }
  if (cells.length === 0) return;
  const width = Math.max(...cells.map((c) => c.x + c.w));
  const height = penY + rowHeight;
  const plain = new OutlinePath();
  const strokes = new Map<number, OutlinePath>();
  for (const c of cells) {
    const at = { x: c.x + c.ox + c.step / SUBPIXEL_STEPS, y: c.y + c.oy };
    plain.add(c.glyph.face, c.glyph.id, c.glyph.size, at.x, at.y);
    if (c.glyph.synthetic) {
      if (!strokes.has(c.glyph.size)) strokes.set(c.glyph.size, new OutlinePath());
      strokes.get(c.glyph.size)!.add(c.glyph.face, c.glyph.id, c.glyph.size, at.x, at.y);
    }
  }
  const stroked = [...strokes].map(([size, path]) => `<path d="${path}" fill="#000" stroke="#000" stroke-width="${SYNTHETIC_BOLD * size}"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><path d="${plain}" fill="#000"/>${stroked}</svg>`;
  const image = new Resvg(svg, { font: { loadSystemFonts: false }, shapeRendering: 2 }).render();
  const rgba = image.pixels;
  if (masks.size + cells.length > MAX_MASKS) masks.clear();
  for (const c of cells) {
    const alpha = new Uint8Array(c.w * c.h);
    for (let y = 0; y < c.h; y++) {
      const row = ((c.y + y) * image.width + c.x) * 4 + 3;
      for (let x = 0; x < c.w; x++) alpha[y * c.w + x] = rgba[row + x * 4];
    }
    masks.set(c.key, { width: c.w, height: c.h, originX: c.ox, originY: c.oy, alpha });
  }
}
