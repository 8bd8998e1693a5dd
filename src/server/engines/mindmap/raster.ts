import { Resvg } from '@resvg/resvg-js';
import { shapeLine } from './fonts.js';
import { maskOf, prepareMasks, SUBPIXEL_STEPS, type GlyphKey, type GlyphMask } from './glyph-masks.js';
import type { LayoutResult } from './layout-types.js';
import { PngWriter } from './png-encode.js';
import { drawSvg, labelLines } from './svg.js';

/** One glyph to set: its mask, the mask's top-left pixel on the canvas, its colour. */
interface Placed {
  mask: GlyphMask;
  left: number;
  top: number;
  rgb: [number, number, number];
}

/**
 * Pixels per band, about: small enough that deflating one band overlaps drawing the next, large
 * enough that each band's own costs (parsing the drawing again, resvg's set-up) stay small.
 */
const BAND_PIXELS = 1_500_000;

/**
 * The PNG of a laid-out map: resvg draws the boxes, lines and dots (the SVG without its labels),
 * band by band, and the labels are set from cached glyph masks of the very fonts they were
 * measured with, at the positions the SVG's text has (baselines on whole pixels). Each band is
 * deflated while the next is drawn. Pure: the same layout gives the same bytes, whatever the
 * caches held before.
 */
export async function rasterizeMap(layout: LayoutResult, title: string): Promise<Uint8Array> {
  const shapes = drawSvg(layout, title, { labels: 'none' });
  const glyphs = placeGlyphs(layout, shapes.offset);
  const { width, height } = shapes;
  const png = new PngWriter(width, height);
  const bands = Math.ceil(height / Math.max(64, Math.ceil(BAND_PIXELS / width)));
  const rowsPerBand = Math.ceil(height / bands);
  let compressing: Promise<void> = Promise.resolve();
  const head = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  for (let top = 0; top < height; top += rowsPerBand) {
    const rows = Math.min(rowsPerBand, height - top);
    const band = shapes.svg.replace(head, `width="${width}" height="${rows}" viewBox="0 ${top} ${width} ${rows}"`);
    const image = new Resvg(band, { font: { loadSystemFonts: false }, shapeRendering: 2 }).render();
    const raw = png.rowsOf(image.pixels, rows);
    for (const g of glyphs) if (g.top < top + rows && g.top + g.mask.height > top) blend(raw, width, top, rows, g);
    // The previous band has been compressing while this one was drawn.
    await compressing;
    compressing = png.write(raw);
  }
  await compressing;
  return png.finish();
}

function placeGlyphs(layout: LayoutResult, offset: { dx: number; dy: number }): Placed[] {
  const wanted: Array<{ glyph: GlyphKey; step: number; x: number; y: number; rgb: [number, number, number] }> = [];
  for (const p of layout.nodes) {
    const label = labelLines(p);
    const rgb = hexRgb(label.fill);
    for (const line of label.lines) {
      const shaped = shapeLine(line.text, label.size, label.bold);
      const start = (label.align === 'middle' ? line.x - shaped.width / 2 : line.x) + offset.dx;
      const y = Math.round(line.baseline + offset.dy);
      for (const g of shaped.glyphs) {
        const gx = start + g.x;
        let x = Math.floor(gx);
        let step = Math.round((gx - x) * SUBPIXEL_STEPS);
        if (step === SUBPIXEL_STEPS) {
          x += 1;
          step = 0;
        }
        wanted.push({ glyph: { face: g.face, id: g.id, size: label.size, synthetic: g.synthetic }, step, x, y: y + Math.round(g.y), rgb });
      }
    }
  }
  prepareMasks(wanted);
  const placed: Placed[] = [];
  for (const w of wanted) {
    const mask = maskOf(w.glyph, w.step);
    if (mask) placed.push({ mask, left: w.x - mask.originX, top: w.y - mask.originY, rgb: w.rgb });
  }
  return placed;
}

/** Source-over of a coloured glyph mask onto a band of opaque PNG rows (a filter byte first in each row). */
function blend(raw: Buffer, width: number, bandTop: number, bandRows: number, p: Placed): void {
  const { mask, left } = p;
  const stride = width * 4 + 1;
  const [r, g, b] = p.rgb;
  const y0 = Math.max(p.top, bandTop);
  const y1 = Math.min(p.top + mask.height, bandTop + bandRows);
  const x0 = Math.max(left, 0);
  const x1 = Math.min(left + mask.width, width);
  const alpha = mask.alpha;
  for (let y = y0; y < y1; y++) {
    let at = (y - bandTop) * stride + 1 + x0 * 4;
    let m = (y - p.top) * mask.width + (x0 - left);
    for (let x = x0; x < x1; x++, at += 4, m++) {
      const a = alpha[m];
      if (a === 0) continue;
      if (a === 255) {
        raw[at] = r;
        raw[at + 1] = g;
        raw[at + 2] = b;
        continue;
      }
      // d + (s - d) * a / 255, rounded: the same blend for every pixel, so the bytes are stable.
      const d0 = raw[at];
      const d1 = raw[at + 1];
      const d2 = raw[at + 2];
      raw[at] = d0 + Math.round(((r - d0) * a) / 255);
      raw[at + 1] = d1 + Math.round(((g - d1) * a) / 255);
      raw[at + 2] = d2 + Math.round(((b - d2) * a) / 255);
    }
  }
}

function hexRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
