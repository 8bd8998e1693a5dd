import { fmt, type LayoutResult, type MeasuredNode } from '../layout-types.js';

/**
 * ORGANIZATION_STRUCTURE: a top-down org chart. A node whose children are all leaves (below the
 * root) lists them in an indented column under it, as org charts list a team, so wide trees stay
 * readable; other nodes spread their children in a row under them with an elbow bus. Each subtree
 * owns a vertical band; sibling bands never intersect, so boxes never overlap.
 */
const ROW_GAP = 44;
const COL_GAP = 22;
const INDENT = 26;
const STACK_GAP = 8;

const stacked = (n: MeasuredNode) => n.depth >= 1 && n.children.length > 0 && n.children.every((c) => c.children.length === 0);

const widths = new WeakMap<MeasuredNode, number>();

function bandWidth(n: MeasuredNode): number {
  const known = widths.get(n);
  if (known !== undefined) return known;
  let w: number;
  if (n.children.length === 0) w = n.w;
  else if (stacked(n)) w = Math.max(n.w, INDENT + Math.max(...n.children.map((c) => c.w)));
  else w = Math.max(n.w, n.children.reduce((s, c) => s + bandWidth(c), 0) + (n.children.length - 1) * COL_GAP);
  widths.set(n, w);
  return w;
}

function place(n: MeasuredNode, left: number, top: number, out: LayoutResult): { cx: number } {
  const band = bandWidth(n);
  if (stacked(n)) {
    out.nodes.push({ node: n, x: left, y: top, align: 'middle' });
    let y = top + n.h + STACK_GAP + 4;
    const lineX = left + INDENT / 2;
    for (const c of n.children) {
      out.nodes.push({ node: c, x: left + INDENT, y, align: 'middle' });
      out.strokes.push({ d: `M${fmt(lineX)} ${fmt(top + n.h)}V${fmt(y + c.h / 2)}H${fmt(left + INDENT)}`, branch: c.branch, width: 1.4 });
      y += c.h + STACK_GAP;
    }
    return { cx: left + n.w / 2 };
  }
  const x = left + (band - n.w) / 2;
  out.nodes.push({ node: n, x, y: top, align: 'middle' });
  if (n.children.length > 0) {
    const kids = n.children.reduce((s, c) => s + bandWidth(c), 0) + (n.children.length - 1) * COL_GAP;
    let cl = left + (band - kids) / 2;
    const childTop = top + n.h + ROW_GAP;
    const busY = top + n.h + ROW_GAP / 2;
    const px = x + n.w / 2;
    for (const c of n.children) {
      const { cx } = place(c, cl, childTop, out);
      out.strokes.push({ d: `M${fmt(px)} ${fmt(top + n.h)}V${fmt(busY)}H${fmt(cx)}V${fmt(childTop)}`, branch: c.branch, width: n.depth === 0 ? 2.4 : 1.6 });
      cl += bandWidth(c) + COL_GAP;
    }
  }
  return { cx: x + n.w / 2 };
}

export function orgLayout(root: MeasuredNode): LayoutResult {
  const out: LayoutResult = { nodes: [], strokes: [], dots: [], extra: [] };
  place(root, 0, 0, out);
  return out;
}
