import { mapFamily } from '../fonts.js';
import { escapeMarkup } from '../../text/escape-markup.js';
import { textWidth } from './measure.js';
import { fmt, LINE_HEIGHT, type LayoutResult, type PlacedNode, type Stroke } from './layout-types.js';

/**
 * Draws a laid-out map as SVG with plain <rect>, <path> and <text>/<tspan> (never foreignObject,
 * which resvg and many viewers cannot draw). Every line of a label is a tspan at an explicit
 * position, so no renderer re-wraps it. Pure: the same layout gives the same bytes.
 *
 * Nothing in it needs a layer of its own (no marker, clip, mask, filter or group opacity): resvg
 * 0.34 aborts the whole process when such a layer lies far outside the canvas (geom.rs's
 * fit_to_rect unwraps an empty intersection), so arrowheads are plain filled paths.
 */

/** Branch colours (a colour-blind-aware palette), each with a darker ink for text on light fills. */
const PALETTE = [
  { main: '#3A6EA5', light: '#EAF1F8' },
  { main: '#D9822B', light: '#FBF0E4' },
  { main: '#3D8B5A', light: '#E8F3EC' },
  { main: '#C0504D', light: '#F8E9E8' },
  { main: '#7B5EA7', light: '#F0EBF6' },
  { main: '#2E8C8C', light: '#E5F2F2' },
  { main: '#A35C7A', light: '#F5EAEF' },
  { main: '#8A7330', light: '#F3EFE3' },
];
const INK = '#1F2933';
const ROOT_FILL = '#263445';
const NEUTRAL = '#52606D';
const BACKGROUND = '#FBFCFD';
const MARGIN = 32;

const colour = (branch: number) =>
  branch < 0 ? { main: NEUTRAL, light: '#EEF1F4' } : PALETTE[branch % PALETTE.length];

/** Where and how a node's label is set: one baseline per line, in the node's own coordinates. */
export interface LabelLines {
  /** `width`: the line as measured when the box was sized; it is drawn that wide, whatever the font. */
  lines: Array<{ text: string; x: number; baseline: number; width: number }>;
  align: 'middle' | 'start';
  size: number;
  bold: boolean;
  fill: string;
}

export function labelLines(p: PlacedNode): LabelLines {
  const n = p.node;
  const s = n.style;
  const lh = s.size * LINE_HEIGHT;
  const tx = p.align === 'middle' ? p.x + n.w / 2 : p.x + s.padX;
  return {
    // Each line's box is lh tall; the baseline sits so capitals (0.73 em in DejaVu) are centred in it.
    lines: n.lines.map((text, i) => ({
      text,
      x: tx,
      baseline: p.y + s.padY + i * lh + lh / 2 + 0.36 * s.size,
      width: textWidth(text, s.size, s.bold),
    })),
    align: p.align,
    size: s.size,
    bold: s.bold,
    fill: n.depth <= 1 ? '#FFFFFF' : INK,
  };
}

function nodeSvg(p: PlacedNode): string {
  const n = p.node;
  const { x, y } = p;
  const c = colour(n.branch);
  const fill = n.depth === 0 ? ROOT_FILL : n.depth === 1 ? c.main : c.light;
  const stroke = n.depth === 0 ? ROOT_FILL : c.main;
  const radius = n.depth === 0 ? 10 : n.depth === 1 ? 8 : 6;
  const box = `<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(n.w)}" height="${fmt(n.h)}" rx="${radius}" fill="${fill}" stroke="${stroke}" stroke-width="${n.depth >= 2 ? 1.2 : 0}"/>`;
  const label = labelLines(p);
  // A viewer without the measured font (a browser lacking DejaVu Sans) sets the line in another one,
  // wider or narrower: textLength holds each line to its measured width, so it stays in its box.
  const spans = label.lines
    .map(
      (l) =>
        `<tspan x="${fmt(l.x)}" y="${fmt(l.baseline)}"${l.width > 0 ? ` textLength="${fmt(l.width)}" lengthAdjust="spacingAndGlyphs"` : ''}>${escapeMarkup(l.text)}</tspan>`,
    )
    .join('');
  const weight = label.bold ? ' font-weight="bold"' : '';
  const anchor = label.align === 'middle' ? ' text-anchor="middle"' : '';
  return `<g id="${n.id}">${box}<text font-size="${label.size}"${weight}${anchor} fill="${label.fill}">${spans}</text></g>`;
}

export interface Drawn {
  svg: string;
  width: number;
  height: number;
  /** Node boxes in drawing coordinates, by id (tests check that none overlap). */
  boxes: Array<{ id: string; x: number; y: number; w: number; h: number }>;
}

/**
 * An arrowhead as a filled triangle (what the marker was: 5 stroke widths long and wide, its tip
 * one stroke width past the line's end, which it covers).
 */
function arrowhead(s: Stroke): string {
  const a = s.arrow!;
  const w = s.width;
  const tip = [a.x + a.dx * w, a.y + a.dy * w];
  const back = [a.x - a.dx * 4 * w, a.y - a.dy * 4 * w];
  const side = [-a.dy * 2.5 * w, a.dx * 2.5 * w];
  const pt = (x: number, y: number) => `${fmt(x)} ${fmt(y)}`;
  return `<path d="M${pt(tip[0], tip[1])}L${pt(back[0] + side[0], back[1] + side[1])}L${pt(back[0] - side[0], back[1] - side[1])}Z" fill="${NEUTRAL}"/>`;
}

export function drawSvg(layout: LayoutResult, title: string): Drawn {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const grow = (x: number, y: number) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  for (const p of layout.nodes) {
    grow(p.x, p.y);
    grow(p.x + p.node.w, p.y + p.node.h);
  }
  for (const d of layout.dots) {
    grow(d.cx - d.r, d.cy - d.r);
    grow(d.cx + d.r, d.cy + d.r);
  }
  for (const [x, y] of layout.extra) grow(x, y);
  const dx = Math.round(MARGIN - minX);
  const dy = Math.round(MARGIN - minY);
  const width = Math.ceil(maxX - minX + 2 * MARGIN);
  const height = Math.ceil(maxY - minY + 2 * MARGIN);
  const strokes = layout.strokes
    .map((s) => `<path d="${s.d}" stroke="${colour(s.branch).main}" stroke-width="${s.width}"/>`)
    .join('');
  const arrows = layout.strokes
    .filter((s) => s.arrow)
    .map(arrowhead)
    .join('');
  const dots = layout.dots
    .map(
      (d) =>
        `<circle cx="${fmt(d.cx)}" cy="${fmt(d.cy)}" r="${d.r}" fill="${colour(d.branch).main}" stroke="#FFFFFF" stroke-width="2"/>`,
    )
    .join('');
  const nodes = layout.nodes.map(nodeSvg).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeMarkup(mapFamily())}">` +
    `<title>${escapeMarkup(title)}</title>` +
    `<rect width="${width}" height="${height}" fill="${BACKGROUND}"/>` +
    // Layouts work around their own origin; one translation puts the drawing inside the margin.
    `<g transform="translate(${dx} ${dy})"><g fill="none" stroke-linecap="round" stroke-linejoin="round">${strokes}</g>${arrows}${dots}${nodes}</g></svg>\n`;
  const boxes = layout.nodes.map((p) => ({ id: p.node.id, x: p.x + dx, y: p.y + dy, w: p.node.w, h: p.node.h }));
  return { svg, width, height, boxes };
}
