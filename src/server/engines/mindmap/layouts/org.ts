import { descendants, fmt, type LayoutResult, type MeasuredNode } from '../layout-types.js';

/**
 * ORGANIZATION_STRUCTURE: a top-down org chart. The root spreads its branches in a row under it
 * with an elbow bus, and so does a branch with a few children that have their own; otherwise a
 * node lists its whole subtree in an indented column under it, as org charts list a team, so wide
 * trees stay readable (a 200-node map is a few columns, not fifty). Each subtree owns a vertical
 * band; sibling bands never intersect and a column's rows never do, so boxes never overlap.
 */
const ROW_GAP = 44;
const COL_GAP = 22;
const INDENT = 26;
const STACK_GAP = 8;

const SPREAD_MAX = 3;

const stacked = (n: MeasuredNode) =>
  n.depth >= 1 &&
  n.children.length > 0 &&
  (n.depth >= 2 || n.children.length > SPREAD_MAX || n.children.every((c) => c.children.length === 0));

const widths = new WeakMap<MeasuredNode, number>();

function bandWidth(n: MeasuredNode): number {
  const known = widths.get(n);
  if (known !== undefined) return known;
  let w: number;
  if (n.children.length === 0) w = n.w;
  else if (stacked(n)) w = Math.max(n.w, ...descendants(n).map((d) => INDENT * (d.rel + 1) + d.node.w));
  else w = Math.max(n.w, n.children.reduce((s, c) => s + bandWidth(c), 0) + (n.children.length - 1) * COL_GAP);
  widths.set(n, w);
  return w;
}

function place(n: MeasuredNode, left: number, top: number, out: LayoutResult): { cx: number } {
  const band = bandWidth(n);
  if (stacked(n)) {
    out.nodes.push({ node: n, x: left, y: top, align: 'middle' });
    const at = new Map<MeasuredNode, { x: number; y: number }>([[n, { x: left, y: top }]]);
    let y = top + n.h + STACK_GAP + 4;
    for (const d of descendants(n)) {
      const x = left + INDENT * (d.rel + 1);
      const p = at.get(d.parent)!;
      at.set(d.node, { x, y });
      out.nodes.push({ node: d.node, x, y, align: 'middle' });
      out.strokes.push({
        d: `M${fmt(p.x + INDENT / 2)} ${fmt(p.y + d.parent.h)}V${fmt(y + d.node.h / 2)}H${fmt(x)}`,
        branch: d.node.branch,
        width: 1.4,
      });
      y += d.node.h + STACK_GAP;
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
      // The root's bus is shared by every branch: neutral ink, so no branch's colour covers another's.
      out.strokes.push({
        d: `M${fmt(px)} ${fmt(top + n.h)}V${fmt(busY)}H${fmt(cx)}V${fmt(childTop)}`,
        branch: n.depth === 0 ? -1 : c.branch,
        width: n.depth === 0 ? 2.4 : 1.6,
      });
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
