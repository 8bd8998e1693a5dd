import { fmt, type LayoutResult, type MeasuredNode } from '../layout-types.js';

/**
 * CATALOG_ORGANIZATION: a table of contents. The root is the title; each first-level branch is a
 * section with its entries indented under it, one row each, joined by a guide line. Long catalogs
 * flow into several columns of whole sections (in order), so the page stays about landscape.
 * Rows never share a vertical span within a column and columns never share a horizontal one.
 */
const INDENT = 24;
const ROW_GAP = 6;
const SECTION_GAP = 18;
const COLUMN_GAP = 48;
const TITLE_GAP = 26;
const COLUMN_TARGET = 760;

interface Row {
  node: MeasuredNode;
  parent: MeasuredNode | null;
  level: number;
}

function rowsOf(section: MeasuredNode): Row[] {
  const rows: Row[] = [{ node: section, parent: null, level: 0 }];
  const walk = (n: MeasuredNode, level: number) => {
    for (const c of n.children) {
      rows.push({ node: c, parent: n, level });
      walk(c, level + 1);
    }
  };
  walk(section, 1);
  return rows;
}

const heightOf = (rows: Row[]) => rows.reduce((s, r) => s + r.node.h, 0) + (rows.length - 1) * ROW_GAP;

export function catalogLayout(root: MeasuredNode): LayoutResult {
  const out: LayoutResult = { nodes: [], strokes: [], dots: [], extra: [] };
  out.nodes.push({ node: root, x: 0, y: 0, align: 'start' });
  const sections = root.children.map(rowsOf);
  const total = sections.reduce((s, rows) => s + heightOf(rows), 0) + Math.max(0, sections.length - 1) * SECTION_GAP;
  const columns = Math.max(1, Math.min(sections.length, Math.ceil(total / COLUMN_TARGET)));
  // Contiguous groups of sections, each about total/columns tall.
  const groups: Row[][][] = [];
  let current: Row[][] = [];
  let height = 0;
  const target = total / columns;
  for (const [i, rows] of sections.entries()) {
    const h = heightOf(rows);
    const left = sections.length - i;
    const slots = columns - groups.length;
    if (current.length > 0 && (height + h / 2 > target || left < slots)) {
      groups.push(current);
      current = [];
      height = 0;
    }
    current.push(rows);
    height += h + SECTION_GAP;
  }
  if (current.length > 0) groups.push(current);

  let colX = 0;
  const top = root.h + TITLE_GAP;
  for (const group of groups) {
    let y = top;
    let colWidth = 0;
    const at = new Map<MeasuredNode, { x: number; y: number }>();
    for (const rows of group) {
      for (const r of rows) {
        const x = colX + r.level * INDENT;
        at.set(r.node, { x, y });
        out.nodes.push({ node: r.node, x, y, align: 'start' });
        colWidth = Math.max(colWidth, r.level * INDENT + r.node.w);
        y += r.node.h + ROW_GAP;
      }
      // Guide lines: from under each parent down to each child's middle.
      for (const r of rows) {
        if (!r.parent) continue;
        const p = at.get(r.parent)!;
        const c = at.get(r.node)!;
        const lineX = p.x + INDENT / 2;
        out.strokes.push({
          d: `M${fmt(lineX)} ${fmt(p.y + r.parent.h)}V${fmt(c.y + r.node.h / 2)}H${fmt(c.x)}`,
          branch: r.node.branch,
          width: 1.4,
        });
      }
      y += SECTION_GAP - ROW_GAP;
    }
    colX += colWidth + COLUMN_GAP;
  }
  // A rule under the title across the columns.
  const width = Math.max(root.w, colX - COLUMN_GAP);
  out.strokes.push({ d: `M0 ${fmt(root.h + TITLE_GAP / 2)}H${fmt(width)}`, branch: -1, width: 1.5 });
  return out;
}
