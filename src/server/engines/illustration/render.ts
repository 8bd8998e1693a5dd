import { runCpuJob } from '../workers/index.js';

/**
 * SVG to PNG at the SVG's own size, in a CPU worker: resvg's parse and PNG encoding are synchronous
 * (a 2048x2048 image takes a good part of a second), so on the event loop eight of them held every
 * other request, /healthz included, for seconds. Aborting the signal stops the render.
 */
export async function renderPng(svg: string, signal?: AbortSignal, owner?: string): Promise<{ png: Buffer; width: number; height: number; fonts: number }> {
  const r = await runCpuJob('render-png', { svg }, { signal, owner });
  return { ...r, png: Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength) };
}
