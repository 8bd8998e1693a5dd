import { Resvg } from '@resvg/resvg-js';
import { PRIMARY_FAMILY, renderFontFiles } from './fonts.js';
import { measureTree, type LayoutResult, type MeasuredNode } from './layout-types.js';
import { logicalLayout, mindMapLayout } from './layouts/horizontal.js';
import { orgLayout } from './layouts/org.js';
import { catalogLayout } from './layouts/catalog.js';
import { timelineLayout } from './layouts/timeline.js';
import { fishboneLayout } from './layouts/fishbone.js';
import { drawSvg, type Drawn } from './svg.js';
import { encodePng } from './png-encode.js';
import type { Layout, MindNode } from './tree.js';

export { LAYOUTS, parseOutline, toMarkdown, normalizeTree, countNodes, type Layout, type MindNode } from './tree.js';

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

/**
 * The SVG (with real text) and, when asked, the PNG of one layout: the PNG is rasterised from the
 * same layout drawn with glyph outlines (set with the measuring fonts), so resvg has no text to
 * shape and loads no font.
 */
export function renderBoth(tree: MindNode, layout: Layout, png: boolean): { drawn: Drawn; png: Uint8Array | null } {
  const laid = LAYOUT_FUNCTIONS[layout](measureTree(tree));
  const drawn = drawSvg(laid, tree.text);
  return { drawn, png: png ? svgToPng(drawSvg(laid, tree.text, { outlines: true }).svg) : null };
}

/** Rasterises an SVG with resvg; text in it is set with exactly the files the labels were measured with. */
export function svgToPng(svg: string): Uint8Array {
  const hasText = svg.includes('<text');
  const image = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: hasText ? renderFontFiles() : [], defaultFontFamily: PRIMARY_FAMILY, sansSerifFamily: PRIMARY_FAMILY },
    shapeRendering: 2,
    textRendering: 1,
  }).render();
  return encodePng(image.pixels, image.width, image.height);
}
