import { renderBoth } from './index.js';
import type { Layout, MindNode } from './tree.js';

export interface MindmapRender {
  tree: MindNode;
  layout: Layout;
  /** Also rasterise the drawing (the page's ?format=png). */
  png?: boolean;
}

/** The worker job: layout, SVG and (when asked) PNG of one tree, all CPU work, off the event loop. */
export async function renderMindmap(input: MindmapRender): Promise<{ svg: string; width: number; height: number; png: Uint8Array | null }> {
  const { drawn, png } = await renderBoth(input.tree, input.layout, input.png === true);
  return { svg: drawn.svg, width: drawn.width, height: drawn.height, png };
}
