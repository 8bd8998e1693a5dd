import { fmt, type LayoutResult, type MeasuredNode, type PlacedNode } from '../layout-types.js';

/**
 * Left-to-right trees (LOGICAL_STRUCTURE, and each side of MIND_MAP). Every subtree owns a
 * horizontal band as tall as its leaves need; sibling bands never intersect and children sit in
 * the next column, so no two boxes can overlap. A parent is centred on its children.
 */
const H_GAP = 46;
const ROOT_GAP = 64;

function siblingGap(depth: number): number {
  return depth <= 1 ? 18 : 8;
}

const heights = new WeakMap<MeasuredNode, number>();

export function bandHeight(n: MeasuredNode): number {
  const known = heights.get(n);
  if (known !== undefined) return known;
  const kids =
    n.children.reduce((s, c) => s + bandHeight(c), 0) + Math.max(0, n.children.length - 1) * siblingGap(n.depth + 1);
  const h = Math.max(n.h, kids);
  heights.set(n, h);
  return h;
}

/** A right-angled connector (logical charts): out of the parent, along, into the child. */
export function elbow(x1: number, y1: number, x2: number, y2: number): string {
  const xm = x1 + (x2 - x1) / 2;
  return `M${fmt(x1)} ${fmt(y1)}H${fmt(xm)}V${fmt(y2)}H${fmt(x2)}`;
}

/** A smooth S-curve from a parent's side to a child's side. */
export function curve(x1: number, y1: number, x2: number, y2: number): string {
  const xm = (x1 + x2) / 2;
  return `M${fmt(x1)} ${fmt(y1)}C${fmt(xm)} ${fmt(y1)} ${fmt(xm)} ${fmt(y2)} ${fmt(x2)} ${fmt(y2)}`;
}

/**
 * Places `nodes` (siblings, in order) in a band starting at `top`, their near edge at `edge`;
 * dir 1 grows rightwards, -1 leftwards. Returns nothing: pushes into out.
 */
export function placeSiblings(
  nodes: MeasuredNode[],
  edge: number,
  top: number,
  dir: 1 | -1,
  out: LayoutResult,
  from?: { x: number; y: number },
  columns?: Map<number, number>,
  connect: typeof curve = curve,
): void {
  let y = top;
  for (const n of nodes) {
    const band = bandHeight(n);
    const cy = y + band / 2;
    // With columns, every node of a depth starts at its depth's column, as an outline reads.
    const near = columns?.get(n.depth) ?? edge;
    const x = dir === 1 ? near : near - n.w;
    out.nodes.push({ node: n, x, y: cy - n.h / 2, align: 'middle' });
    // Elbows from the root share one trunk: drawn in neutral ink, so no branch's colour covers another's.
    const ink = connect === elbow && n.depth === 1 ? -1 : n.branch;
    if (from)
      out.strokes.push({
        d: connect(from.x, from.y, dir === 1 ? x : x + n.w, cy),
        branch: ink,
        width: n.depth === 1 ? 2.4 : 1.6,
      });
    if (n.children.length > 0) {
      const kids =
        n.children.reduce((s, c) => s + bandHeight(c), 0) + (n.children.length - 1) * siblingGap(n.depth + 1);
      const childEdge = dir === 1 ? x + n.w + H_GAP : x - H_GAP;
      placeSiblings(
        n.children,
        childEdge,
        cy - kids / 2,
        dir,
        out,
        { x: dir === 1 ? x + n.w : x, y: cy },
        columns,
        connect,
      );
    }
    y += band + siblingGap(n.depth);
  }
}

/** Column edges by depth for the given first-level branches: each depth starts past the widest box of the one before. */
function columnsOf(branches: MeasuredNode[], start: number, dir: 1 | -1): Map<number, number> {
  const widest = new Map<number, number>();
  const walk = (n: MeasuredNode) => {
    widest.set(n.depth, Math.max(widest.get(n.depth) ?? 0, n.w));
    n.children.forEach(walk);
  };
  branches.forEach(walk);
  const columns = new Map<number, number>();
  let edge = start;
  for (let d = 1; widest.has(d); d++) {
    columns.set(d, edge);
    edge += dir * (widest.get(d)! + H_GAP);
  }
  return columns;
}

function empty(): LayoutResult {
  return { nodes: [], strokes: [], dots: [], extra: [] };
}

/** LOGICAL_STRUCTURE: the root at the left, the tree growing to the right. */
export function logicalLayout(root: MeasuredNode): LayoutResult {
  const out = empty();
  const band = bandHeight(root);
  const root_: PlacedNode = { node: root, x: 0, y: band / 2 - root.h / 2, align: 'middle' };
  out.nodes.push(root_);
  const kids =
    root.children.reduce((s, c) => s + bandHeight(c), 0) + Math.max(0, root.children.length - 1) * siblingGap(1);
  placeSiblings(
    root.children,
    root.w + ROOT_GAP,
    band / 2 - kids / 2,
    1,
    out,
    { x: root.w, y: band / 2 },
    columnsOf(root.children, root.w + ROOT_GAP, 1),
    elbow,
  );
  return out;
}

/**
 * MIND_MAP: the root in the middle, its branches shared between a right and a left side so both are
 * about as tall; the first half (in order) goes right, the rest left, so the map reads clockwise
 * from the top right.
 */
export function mindMapLayout(root: MeasuredNode): LayoutResult {
  const out = empty();
  out.nodes.push({ node: root, x: -root.w / 2, y: -root.h / 2, align: 'middle' });
  const total = root.children.reduce((s, c) => s + bandHeight(c), 0);
  const right: MeasuredNode[] = [];
  const left: MeasuredNode[] = [];
  let acc = 0;
  for (const c of root.children) {
    // Right until it holds half the height; a single branch stays right.
    if (right.length === 0 || acc + bandHeight(c) / 2 <= total / 2) {
      right.push(c);
      acc += bandHeight(c);
    } else left.push(c);
  }
  const sideHeight = (side: MeasuredNode[]) =>
    side.reduce((s, c) => s + bandHeight(c), 0) + Math.max(0, side.length - 1) * siblingGap(1);
  placeSiblings(right, root.w / 2 + ROOT_GAP, -sideHeight(right) / 2, 1, out, { x: root.w / 2, y: 0 });
  // The left side reads bottom-up (clockwise), so its first branch is at the bottom.
  placeSiblings([...left].reverse(), -root.w / 2 - ROOT_GAP, -sideHeight(left) / 2, -1, out, { x: -root.w / 2, y: 0 });
  return out;
}
