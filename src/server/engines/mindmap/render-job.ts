import { renderSvg, svgToPng } from './index.js';
import type { Layout, MindNode } from './tree.js';

export interface MindmapRender {
  tree: MindNode;
  layout: Layout;
  /** Also rasterise the drawing (the page's ?format=png). */
  png?: boolean;
}

/** The worker job: layout, SVG and (when asked) PNG of one tree, all CPU work, off the event loop. */
export function renderMindmap(input: MindmapRender): { svg: string; width: number; height: number; png: Uint8Array | null } {
  const drawn = renderSvg(input.tree, input.layout);
  return { svg: drawn.svg, width: drawn.width, height: drawn.height, png: input.png ? svgToPng(drawn.svg) : null };
}
