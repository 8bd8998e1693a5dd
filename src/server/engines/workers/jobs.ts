import { extractDocument, type DocumentKind } from '../extract/documents.js';
import { loadEncoder, truncateWith } from '../gateway/encoder.js';
import { rasterize } from '../illustration/rasterize.js';
import { runSeoTask, type SeoTaskInput } from '../../providers/beta/local/seo-tasks.js';
import { shapeHtml, type ShapeOptions } from '../extract/shape-html.js';
import { renderMindmap, type MindmapRender } from '../mindmap/render-job.js';
import { composeDeck, type ComposeDeckInput } from '../slides/compose.js';
import { readTemplateTheme } from '../slides/template-theme.js';

/** A job's answer, and the buffers to move (not copy) back to the caller. */
interface Done<T> {
  value: T;
  transfer?: ArrayBuffer[];
}

/**
 * The CPU-heavy jobs, by name: run in a worker thread (worker.ts) or, when the worker script is not
 * built (unit tests on the sources), in the caller's thread. Inputs and outputs are structured-
 * cloneable: a Buffer arrives as a Uint8Array.
 */
export const jobs = {
  async 'count-tokens'(input: { texts: string[] }): Promise<Done<number[]>> {
    const enc = await loadEncoder();
    return { value: input.texts.map((t) => enc.count(t)) };
  },

  async 'truncate-tokens'(input: { text: string; maxTokens: number }): Promise<Done<{ text: string; tokens: number; truncated: boolean }>> {
    return { value: truncateWith(await loadEncoder(), input.text, input.maxTokens) };
  },

  async 'render-png'(input: { svg: string }): Promise<Done<ReturnType<typeof rasterize>>> {
    const raster = rasterize(input.svg);
    return { value: raster, transfer: ownBuffer(raster.png) };
  },

  async 'read-template-theme'(input: { data: Uint8Array }): Promise<Done<Awaited<ReturnType<typeof readTemplateTheme>>>> {
    return { value: await readTemplateTheme(input.data) };
  },

  async 'extract-document'(input: { kind: DocumentKind; data: Uint8Array }): Promise<Done<Awaited<ReturnType<typeof extractDocument>>>> {
    return { value: await extractDocument(input.kind, Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength)) };
  },

  async 'beta-seo-task'(input: SeoTaskInput): Promise<Done<ReturnType<typeof runSeoTask>>> {
    return { value: runSeoTask(input) };
  },

  async 'render-mindmap'(input: MindmapRender): Promise<Done<Awaited<ReturnType<typeof renderMindmap>>>> {
    const out = await renderMindmap(input);
    return { value: out, transfer: out.png ? ownBuffer(out.png) : [] };
  },

  async 'write-deck'(input: ComposeDeckInput): Promise<Done<Awaited<ReturnType<typeof composeDeck>>>> {
    const out = await composeDeck(input);
    return { value: out, transfer: ownBuffer(out.pptx) };
  },

  async 'shape-html'(input: { html: string; url: string; options: ShapeOptions }): Promise<Done<ReturnType<typeof shapeHtml>>> {
    return { value: shapeHtml(input.html, input.url, input.options) };
  },
};

export type JobName = keyof typeof jobs;
export type JobInput<K extends JobName> = Parameters<(typeof jobs)[K]>[0];
export type JobOutput<K extends JobName> = Awaited<ReturnType<(typeof jobs)[K]>>['value'];

/** A buffer can be moved only when it owns its whole memory (not a slice of Node's pool). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}
