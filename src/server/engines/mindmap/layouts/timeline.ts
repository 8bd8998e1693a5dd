import { descendants, fmt, type LayoutResult, type MeasuredNode } from '../layout-types.js';

/**
 * TIMELINE: the root at the start of an arrow axis; the first-level branches are the events along
 * it, in order, alternately above and below so neighbours can sit closer; each event's details are
 * listed under it (away from the axis). Events on one side never share a horizontal span and the
 * two sides are separated by the axis, so boxes never overlap.
 */
const STEM = 30;
const DETAIL_GAP = 8;
const INDENT = 18;
const SAME_SIDE_GAP = 28;
const MIN_STEP = 70;

export function timelineLayout(root: MeasuredNode): LayoutResult {
  const out: LayoutResult = { nodes: [], strokes: [], dots: [], extra: [] };
  out.nodes.push({ node: root, x: -root.w - 36, y: -root.h / 2, align: 'middle' });
  let lastRight = 0;
  const lastOnSide: Array<number | null> = [null, null];
  let lastCenter: number | null = null;
  for (const [i, event] of root.children.entries()) {
    const side = i % 2; // 0 above, 1 below
    const details = descendants(event);
    const colW = Math.max(event.w, ...details.map((d) => INDENT + d.rel * INDENT + d.node.w));
    let left = lastOnSide[side] === null ? 0 : lastOnSide[side] + SAME_SIDE_GAP;
    if (lastCenter !== null) left = Math.max(left, lastCenter + MIN_STEP - event.w / 2);
    const cx = left + event.w / 2;
    const eventY = side === 0 ? -STEM - event.h : STEM;
    out.nodes.push({ node: event, x: left, y: eventY, align: 'middle' });
    out.strokes.push({ d: `M${fmt(cx)} 0V${fmt(side === 0 ? -STEM : STEM)}`, branch: event.branch, width: 2 });
    out.dots.push({ cx, cy: 0, r: 6, branch: event.branch });
    // Details read top-down in both cases: above the axis they stack upwards from the event.
    const stack = details.reduce((s, d) => s + d.node.h, 0) + Math.max(0, details.length - 1) * DETAIL_GAP;
    let y = side === 0 ? eventY - DETAIL_GAP - 4 - stack : eventY + event.h + DETAIL_GAP + 4;
    const at = new Map<MeasuredNode, { x: number; y: number }>([[event, { x: left, y: eventY }]]);
    for (const d of details) {
      const x = left + INDENT + d.rel * INDENT;
      at.set(d.node, { x, y });
      out.nodes.push({ node: d.node, x, y, align: 'middle' });
      y += d.node.h + DETAIL_GAP;
    }
    for (const d of details) {
      const p = at.get(d.parent)!;
      const c = at.get(d.node)!;
      const lineX = p.x + INDENT / 2;
      // From the parent's edge that faces the detail (above the axis the details sit over the event).
      const fromY = d.parent === event && side === 0 ? p.y : p.y + d.parent.h;
      out.strokes.push({
        d: `M${fmt(lineX)} ${fmt(fromY)}V${fmt(c.y + d.node.h / 2)}H${fmt(c.x)}`,
        branch: d.node.branch,
        width: 1.3,
      });
    }
    lastOnSide[side] = left + colW;
    lastCenter = cx;
    lastRight = Math.max(lastRight, left + colW);
  }
  const end = lastRight + 40;
  out.strokes.push({ d: `M-36 0H${fmt(end)}`, branch: -1, width: 3, arrow: { x: end, y: 0, dx: 1, dy: 0 } });
  out.extra.push([end + 12, 0]);
  return out;
}
