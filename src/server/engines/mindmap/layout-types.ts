import type { MindNode } from './tree.js';
import { wrapText, textWidth } from './measure.js';

/** How a node of a given depth is set: font, weight, widest line, padding. */
export interface NodeStyle {
  size: number;
  bold: boolean;
  maxWidth: number;
  padX: number;
  padY: number;
}

/** A node with its text wrapped and its box measured, before it is placed. */
export interface MeasuredNode {
  id: string;
  depth: number;
  /** Index of the first-level branch it belongs to (its colour); -1 for the root. */
  branch: number;
  lines: string[];
  style: NodeStyle;
  w: number;
  h: number;
  children: MeasuredNode[];
}

/** A placed node: its box's top-left corner, and how its lines are aligned. */
export interface PlacedNode {
  node: MeasuredNode;
  x: number;
  y: number;
  align: 'middle' | 'start';
}

/** A connector or decoration path, drawn under the nodes. */
export interface Stroke {
  d: string;
  /** Branch colour index, or -1 for the neutral ink. */
  branch: number;
  width: number;
  /** An arrowhead at the path's end (axes, spines): that end point and the unit direction it points in. */
  arrow?: { x: number; y: number; dx: number; dy: number };
}

export interface Dot {
  cx: number;
  cy: number;
  r: number;
  branch: number;
}

export interface LayoutResult {
  nodes: PlacedNode[];
  strokes: Stroke[];
  dots: Dot[];
  /** Points decorations reach beyond the nodes (axis and spine ends), for the drawing's bounds. */
  extra: Array<[number, number]>;
}

export const LINE_HEIGHT = 1.32;

const MIN_WIDTH = [120, 72, 44];

export function defaultStyle(depth: number): NodeStyle {
  if (depth === 0) return { size: 20, bold: true, maxWidth: 260, padX: 18, padY: 12 };
  if (depth === 1) return { size: 15, bold: true, maxWidth: 210, padX: 14, padY: 9 };
  return { size: 13, bold: false, maxWidth: 200, padX: 10, padY: 6 };
}

/** Wraps and measures every node; ids are preorder numbers, so the same tree always gets the same ids. */
export function measureTree(tree: MindNode, styleOf: (depth: number) => NodeStyle = defaultStyle): MeasuredNode {
  let next = 0;
  const walk = (n: MindNode, depth: number, branch: number): MeasuredNode => {
    const style = styleOf(depth);
    const lines = wrapText(n.text, style.size, style.bold, style.maxWidth);
    const widest = Math.max(...lines.map((l) => textWidth(l, style.size, style.bold)));
    const id = `n${next++}`;
    return {
      id,
      depth,
      branch,
      lines,
      style,
      // Whole pixels, one spare: the drawing never depends on sub-pixel rounding.
      // A one-word label still gets a box wide enough to read as one.
      w: Math.max(MIN_WIDTH[Math.min(depth, 2)], Math.ceil(widest + 2 * style.padX + 1)),
      h: Math.ceil(lines.length * style.size * LINE_HEIGHT + 2 * style.padY),
      children: n.children.map((c, i) => walk(c, depth + 1, depth === 0 ? i : branch)),
    };
  };
  return walk(tree, 0, -1);
}

/** Numbers in the SVG: at most one decimal, no "-0", so output is stable and small. */
export function fmt(n: number): string {
  const r = Math.round(n * 10) / 10;
  return (Object.is(r, -0) ? 0 : r).toString();
}

/** Preorder list of a subtree's descendants with their depth below it (0 = a child). */
export function descendants(n: MeasuredNode): Array<{ node: MeasuredNode; rel: number; parent: MeasuredNode }> {
  const out: Array<{ node: MeasuredNode; rel: number; parent: MeasuredNode }> = [];
  const walk = (p: MeasuredNode, rel: number) => {
    for (const c of p.children) {
      out.push({ node: c, rel, parent: p });
      walk(c, rel + 1);
    }
  };
  walk(n, 0);
  return out;
}
