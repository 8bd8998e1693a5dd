import { measureTree, type LayoutResult, type MeasuredNode } from './layout-types.js';
import { logicalLayout, mindMapLayout } from './layouts/horizontal.js';
import { orgLayout } from './layouts/org.js';
import { catalogLayout } from './layouts/catalog.js';
import { timelineLayout } from './layouts/timeline.js';
import { fishboneLayout } from './layouts/fishbone.js';
import { drawSvg, type Drawn } from './svg.js';
import { rasterizeMap } from './raster.js';
import type { Layout, MindNode } from './tree.js';

/** The layouts it draws: the contract's. */
export { MINDMAP_LAYOUTS as LAYOUTS } from '../../../contract/mindmap.js';
export { parseOutline, toMarkdown, normalizeTree, countNodes, type Layout, type MindNode } from './tree.js';
export { PNG_LIMITS, PngTooLarge } from './raster.js';

const LAYOUT_FUNCTIONS: Record<Layout, (root: MeasuredNode) => LayoutResult> = {
  MIND_MAP: mindMapLayout,
  LOGICAL_STRUCTURE: logicalLayout,
  ORGANIZATION_STRUCTURE: orgLayout,
  CATALOG_ORGANIZATION: catalogLayout,
  TIMELINE: timelineLayout,
  FISHBONE: fishboneLayout,
};

/** Lays out and draws a tree: a pure function, so the same tree and layout give the same bytes. */
export function renderSvg(tree: MindNode, layout: Layout): Drawn {
  return drawSvg(LAYOUT_FUNCTIONS[layout](measureTree(tree)), tree.text);
}

/** The SVG (with real text) and, when asked, the PNG of the same drawing (raster.ts). */
export function renderBoth(tree: MindNode, layout: Layout, png: boolean): { drawn: Drawn; png: Uint8Array | null } {
  const drawn = renderSvg(tree, layout);
  return { drawn, png: png ? rasterizeMap(drawn) : null };
}
