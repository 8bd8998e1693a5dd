import { renderSvg } from './index.js';
import { PngTooLarge, rasterizeMap } from './raster.js';
import type { Layout, MindNode } from './tree.js';

export interface MindmapRender {
  tree: MindNode;
  layout: Layout;
  /** Also rasterise the drawing (the page's ?format=png). */
  png?: boolean;
}

export interface MindmapRendered {
  svg: string;
  width: number;
  height: number;
  png: Uint8Array | null;
  /** Why no PNG was drawn when one was asked for (too large to be readable): the caller's 4xx. */
  pngRefused?: string;
}

/**
 * The worker job: layout, SVG and (when asked) PNG of one tree, all CPU work, off the event loop.
 * A refused PNG is an answer, not a thrown error, so its reason crosses any worker boundary intact.
 */
export async function renderMindmap(input: MindmapRender): Promise<MindmapRendered> {
  const drawn = renderSvg(input.tree, input.layout);
  const out: MindmapRendered = { svg: drawn.svg, width: drawn.width, height: drawn.height, png: null };
  if (!input.png) return out;
  try {
    out.png = rasterizeMap(drawn);
  } catch (err) {
    if (!(err instanceof PngTooLarge)) throw err;
    out.pngRefused = err.message;
  }
  return out;
}
