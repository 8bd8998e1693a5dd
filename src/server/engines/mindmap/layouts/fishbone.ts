import {
  descendants,
  fmt,
  type LayoutResult,
  type MeasuredNode,
  type PlacedNode,
  type Stroke,
} from '../layout-types.js';

/**
 * FISHBONE (Ishikawa): the root is the head at the right end of a spine; each first-level branch
 * is a bone leaning back from the spine, alternately above and below, with its label at the bone's
 * end; its details hang off the bone on short horizontal ribs, listed in reading order. Bones are
 * placed from the head towards the tail, each moved tailwards until neither its boxes nor its line
 * touch anything already placed, so nothing overlaps whatever the labels' sizes.
 */
const SLANT = 0.5; // horizontal run per unit of height: bones lean about 63 degrees
const SPINE_GAP = 24;
const LABEL_GAP = 14;
const ITEM_GAP = 8;
const RIB = 16;
const INDENT = 18;
const STEP = 8;
const MARGIN = 6;

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Group {
  nodes: PlacedNode[];
  strokes: Stroke[];
  bone: [number, number, number, number];
  rects: Rect[];
}

const overlaps = (a: Rect, b: Rect, m = MARGIN) =>
  a.x < b.x + b.w + m && b.x < a.x + a.w + m && a.y < b.y + b.h + m && b.y < a.y + a.h + m;

/** Whether a segment passes through a rectangle (grown by the margin): Liang-Barsky clipping. */
function crosses(seg: [number, number, number, number], r: Rect, m = MARGIN / 2): boolean {
  const [x1, y1, x2, y2] = seg;
  const dx = x2 - x1;
  const dy = y2 - y1;
  let t0 = 0;
  let t1 = 1;
  const edges: Array<[number, number]> = [
    [-dx, x1 - (r.x - m)],
    [dx, r.x + r.w + m - x1],
    [-dy, y1 - (r.y - m)],
    [dy, r.y + r.h + m - y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function buildBone(bone: MeasuredNode, ax: number, side: -1 | 1): Group {
  const items = descendants(bone);
  const stack = items.reduce((s, d) => s + d.node.h, 0) + Math.max(0, items.length - 1) * ITEM_GAP;
  const length = SPINE_GAP + stack + LABEL_GAP;
  // Distance from the spine -> x of the bone there.
  const boneX = (u: number) => ax - u * SLANT;
  const yOf = (u: number) => side * u;
  const nodes: PlacedNode[] = [];
  const strokes: Stroke[] = [];
  const placed = new Map<MeasuredNode, PlacedNode>();
  // Reading order top-down on both sides: above the spine the first item is farthest from it.
  let u = side === -1 ? SPINE_GAP + stack : SPINE_GAP;
  const spans = items.map((d) => {
    const near = side === -1 ? u - d.node.h : u;
    u = side === -1 ? u - d.node.h - ITEM_GAP : u + d.node.h + ITEM_GAP;
    return { near, far: near + d.node.h };
  });
  // A cause with sub-causes is set as a small indented list: the group shares one right edge, clear
  // of the bone at the group's farthest point; a cause alone sits a rib's length from the bone.
  const groupRight: number[] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i].rel !== 0) continue;
    let j = i + 1;
    while (j < items.length && items[j].rel > 0) j++;
    const right = Math.min(...spans.slice(i, j).map((s) => boneX(s.far))) - RIB;
    for (let k = i; k < j; k++) groupRight[k] = right;
  }
  for (const [i, d] of items.entries()) {
    const top = side === -1 ? yOf(spans[i].far) : yOf(spans[i].near);
    const parent = placed.get(d.parent);
    const right = groupRight[i] - d.rel * INDENT;
    const p: PlacedNode = { node: d.node, x: right - d.node.w, y: top, align: 'middle' };
    nodes.push(p);
    placed.set(d.node, p);
    const midY = top + d.node.h / 2;
    if (!parent) {
      strokes.push({
        d: `M${fmt(right)} ${fmt(midY)}H${fmt(boneX(Math.abs(midY)))}`,
        branch: d.node.branch,
        width: 1.4,
      });
    } else {
      // Down from inside the parent's box, then into the child's right edge.
      const lineX = right + INDENT / 2;
      strokes.push({
        d: `M${fmt(lineX)} ${fmt(parent.y + parent.node.h)}V${fmt(midY)}H${fmt(right)}`,
        branch: d.node.branch,
        width: 1.2,
      });
    }
  }
  const endX = boneX(length);
  const label: PlacedNode = {
    node: bone,
    x: endX - bone.w / 2,
    y: side === -1 ? -length - bone.h : length,
    align: 'middle',
  };
  nodes.unshift(label);
  const seg: [number, number, number, number] = [ax, 0, endX, yOf(length)];
  strokes.unshift({ d: `M${fmt(ax)} 0L${fmt(endX)} ${fmt(yOf(length))}`, branch: bone.branch, width: 2.6 });
  return { nodes, strokes, bone: seg, rects: nodes.map((n) => ({ x: n.x, y: n.y, w: n.node.w, h: n.node.h })) };
}

function fits(g: Group, rects: Rect[], bones: Array<[number, number, number, number]>): boolean {
  for (const r of g.rects) {
    for (const o of rects) if (overlaps(r, o)) return false;
    for (const b of bones) if (crosses(b, r)) return false;
  }
  for (const o of rects) if (crosses(g.bone, o)) return false;
  return true;
}

export function fishboneLayout(root: MeasuredNode): LayoutResult {
  const out: LayoutResult = { nodes: [], strokes: [], dots: [], extra: [] };
  const head: PlacedNode = { node: root, x: 0, y: -root.h / 2, align: 'middle' };
  out.nodes.push(head);
  const rects: Rect[] = [{ x: head.x, y: head.y, w: root.w, h: root.h }];
  const bones: Array<[number, number, number, number]> = [];
  let minX = 0;
  const lastOnSide: Array<number | null> = [null, null];
  let last: number | null = null;
  for (const [i, bone] of root.children.entries()) {
    const side = i % 2 === 0 ? -1 : 1;
    const s = i % 2;
    let ax = Math.min(last === null ? -36 : last - 40, lastOnSide[s] === null ? -36 : lastOnSide[s] - 60);
    let g = buildBone(bone, ax, side);
    // Moved tailwards until it fits; bounded, as every step frees more room.
    for (let tries = 0; tries < 5000 && !fits(g, rects, bones); tries++) {
      ax -= STEP;
      g = buildBone(bone, ax, side);
    }
    out.nodes.push(...g.nodes);
    out.strokes.push(...g.strokes);
    rects.push(...g.rects);
    bones.push(g.bone);
    lastOnSide[s] = ax;
    last = ax;
    minX = Math.min(minX, ax, ...g.rects.map((r) => r.x));
  }
  const tail = minX - 24;
  out.strokes.unshift({ d: `M${fmt(tail)} 0H-4`, branch: -1, width: 4, arrow: { x: -4, y: 0, dx: 1, dy: 0 } });
  out.extra.push([tail, 0]);
  return out;
}
