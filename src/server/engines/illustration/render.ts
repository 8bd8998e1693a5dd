import { runCpuJob } from '../workers/index.js';

/** A render of at most this many pixels takes milliseconds: it runs on the CPU pool's light lane. */
const LIGHT_PIXELS = 512 * 512;

/** The size the engine's own SVG declares on its root element (Infinity when it says none). */
function pixelsOf(svg: string): number {
  const root = /<svg\b[^>]*>/.exec(svg.slice(0, 2000))?.[0] ?? '';
  const w = Number(/\bwidth="(\d+)"/.exec(root)?.[1]);
  const h = Number(/\bheight="(\d+)"/.exec(root)?.[1]);
  return w > 0 && h > 0 ? w * h : Infinity;
}

/**
 * SVG to PNG at the SVG's own size, in a CPU worker: resvg's parse and PNG encoding are synchronous
 * (a 2048x2048 image takes a good part of a second), so on the event loop eight of them held every
 * other request, /healthz included, for seconds. Aborting the signal stops the render.
 */
export async function renderPng(
  svg: string,
  signal?: AbortSignal,
  owner?: string,
): Promise<{ png: Buffer; width: number; height: number; fonts: number }> {
  const r = await runCpuJob('render-png', { svg }, { signal, owner, urgent: pixelsOf(svg) <= LIGHT_PIXELS });
  return { ...r, png: Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength) };
}
