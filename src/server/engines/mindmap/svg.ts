import { FONT_FAMILY } from './fonts.js';
import { fmt, LINE_HEIGHT, type LayoutResult, type PlacedNode } from './layout-types.js';

/**
 * Draws a laid-out map as SVG with plain <rect>, <path> and <text>/<tspan> (never foreignObject,
 * which resvg and many viewers cannot draw). Every line of a label is a tspan at an explicit
 * position, so no renderer re-wraps it. Pure: the same layout gives the same bytes.
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

const colour = (branch: number) => (branch < 0 ? { main: NEUTRAL, light: '#EEF1F4' } : PALETTE[branch % PALETTE.length]);

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Where and how a node's label is set: one baseline per line, in the node's own coordinates. */
export interface LabelLines {
  lines: Array<{ text: string; x: number; baseline: number }>;
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
    lines: n.lines.map((text, i) => ({ text, x: tx, baseline: p.y + s.padY + i * lh + lh / 2 + 0.36 * s.size })),
    align: p.align,
    size: s.size,
    bold: s.bold,
    fill: n.depth <= 1 ? '#FFFFFF' : INK,
  };
}

function nodeSvg(p: PlacedNode, withText: boolean): string {
  const n = p.node;
  const { x, y } = p;
  const c = colour(n.branch);
  const fill = n.depth === 0 ? ROOT_FILL : n.depth === 1 ? c.main : c.light;
  const stroke = n.depth === 0 ? ROOT_FILL : c.main;
  const radius = n.depth === 0 ? 10 : n.depth === 1 ? 8 : 6;
  const box = `<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(n.w)}" height="${fmt(n.h)}" rx="${radius}" fill="${fill}" stroke="${stroke}" stroke-width="${n.depth >= 2 ? 1.2 : 0}"/>`;
  if (!withText) return `<g id="${n.id}">${box}</g>`;
  const label = labelLines(p);
  const spans = label.lines.map((l) => `<tspan x="${fmt(l.x)}" y="${fmt(l.baseline)}">${escapeXml(l.text)}</tspan>`).join('');
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
  /** The translation from layout to drawing coordinates (labels drawn apart are moved by it). */
  offset: { dx: number; dy: number };
}

/**
 * `labels: 'none'` leaves the labels out: the PNG draws the boxes and lines from that and sets the
 * labels itself from cached glyph masks (raster.ts); the SVG handed out keeps real, selectable text.
 */
export function drawSvg(layout: LayoutResult, title: string, options: { labels?: 'text' | 'none' } = {}): Drawn {
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
    .map((s) => `<path d="${s.d}" stroke="${colour(s.branch).main}" stroke-width="${s.width}"${s.arrow ? ' marker-end="url(#arrow)"' : ''}/>`)
    .join('');
  const dots = layout.dots.map((d) => `<circle cx="${fmt(d.cx)}" cy="${fmt(d.cy)}" r="${d.r}" fill="${colour(d.branch).main}" stroke="#FFFFFF" stroke-width="2"/>`).join('');
  const nodes = layout.nodes.map((p) => nodeSvg(p, options.labels !== 'none')).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT_FAMILY)}">` +
    `<title>${escapeXml(title)}</title>` +
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="${NEUTRAL}"/></marker></defs>` +
    // In numbers, not 100%: the PNG is drawn in bands through other viewBoxes of this same drawing.
    `<rect width="${width}" height="${height}" fill="${BACKGROUND}"/>` +
    // Layouts work around their own origin; one translation puts the drawing inside the margin.
    `<g transform="translate(${dx} ${dy})"><g fill="none" stroke-linecap="round" stroke-linejoin="round">${strokes}</g>${dots}${nodes}</g></svg>\n`;
  const boxes = layout.nodes.map((p) => ({ id: p.node.id, x: p.x + dx, y: p.y + dy, w: p.node.w, h: p.node.h }));
  return { svg, width, height, boxes, offset: { dx, dy } };
}
