import type { DocumentKind, extractDocument } from '../extract/documents.js';
import type { rasterize } from '../illustration/rasterize.js';
import type { SeoTaskInput, runSeoTask } from '../../providers/beta/local/seo-tasks.js';
import type { generateSeed } from '../../providers/social/seed.js';
import type { ShapeOptions, shapeHtml } from '../extract/shape-html.js';
import type { MindmapRender, renderMindmap } from '../mindmap/render-job.js';
import type { ComposeDeckInput, composeDeck } from '../slides/compose.js';
import type { readTemplateTheme } from '../slides/template-theme.js';
import type { ExtractedHtml } from '../extract/html.js';
import type { Guarded } from '../extract/limits.js';
import type { TextChunk } from '../retrieval/chunker.js';
import type { SchemaAnswers, SchemaJob } from '../gateway/schema-answers.js';

// Each job imports its engine when first run, not when the worker starts: a worker that only shapes
// HTML (batch scrape) never loads fonts, the rasteriser or the slide writer, and the first job of any
// kind waits only for its own modules (a worker starts on the first CPU job, mid-request).

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
    const { loadEncoder } = await import('../gateway/encoder.js');
    const enc = await loadEncoder();
    return { value: input.texts.map((t) => enc.count(t)) };
  },

  async 'truncate-tokens'(input: {
    text: string;
    maxTokens: number;
  }): Promise<Done<{ text: string; tokens: number; truncated: boolean }>> {
    const { loadEncoder, truncateWith } = await import('../gateway/encoder.js');
    return { value: truncateWith(await loadEncoder(), input.text, input.maxTokens) };
  },

  async 'schema-values'(input: SchemaJob): Promise<Done<SchemaAnswers>> {
    const { writeSchemaAnswers } = await import('../gateway/schema-answers.js');
    return { value: writeSchemaAnswers(input) };
  },

  async 'json-shape'(input: { bytes: Uint8Array }): Promise<Done<string | null>> {
    const { jsonShapeRefusal } = await import('../../text/json-shape.js');
    return { value: jsonShapeRefusal(input.bytes) };
  },

  async 'render-png'(input: { svg: string }): Promise<Done<ReturnType<typeof rasterize>>> {
    const { rasterize } = await import('../illustration/rasterize.js');
    const raster = rasterize(input.svg);
    return { value: raster, transfer: ownBuffer(raster.png) };
  },

  // Document jobs answer a refusal (a limit, a wrong format) as a value: see extract/limits.ts.
  async 'read-template-theme'(input: {
    data: Uint8Array;
  }): Promise<Done<Guarded<Awaited<ReturnType<typeof readTemplateTheme>>>>> {
    const [{ readTemplateTheme }, { guarded }] = await Promise.all([
      import('../slides/template-theme.js'),
      import('../extract/limits.js'),
    ]);
    return { value: await guarded(() => readTemplateTheme(input.data)) };
  },

  async 'extract-document'(input: {
    kind: DocumentKind;
    data: Uint8Array;
  }): Promise<Done<Guarded<Awaited<ReturnType<typeof extractDocument>>>>> {
    const [{ extractDocument }, { guarded }] = await Promise.all([
      import('../extract/documents.js'),
      import('../extract/limits.js'),
    ]);
    return {
      value: await guarded(() =>
        extractDocument(input.kind, Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength)),
      ),
    };
  },

  async 'extract-html'(input: { html: string }): Promise<Done<Guarded<ExtractedHtml>>> {
    const [{ extractHtml }, { guarded }] = await Promise.all([
      import('../extract/html.js'),
      import('../extract/limits.js'),
    ]);
    return { value: await guarded(() => extractHtml(input.html)) };
  },

  async 'structure-text'(input: { text: string }): Promise<Done<string>> {
    const { plainTextToMarkdown } = await import('../../text/plain-text.js');
    return { value: plainTextToMarkdown(input.text) };
  },

  async 'chunk-text'(input: { text: string; defaultTitle: string }): Promise<Done<TextChunk[]>> {
    const { chunkText } = await import('../retrieval/chunker.js');
    return { value: chunkText(input.text, { defaultTitle: input.defaultTitle }) };
  },

  async 'beta-seo-task'(input: SeoTaskInput): Promise<Done<ReturnType<typeof runSeoTask>>> {
    const { runSeoTask } = await import('../../providers/beta/local/seo-tasks.js');
    return { value: runSeoTask(input) };
  },

  async 'render-mindmap'(input: MindmapRender): Promise<Done<Awaited<ReturnType<typeof renderMindmap>>>> {
    const { renderMindmap } = await import('../mindmap/render-job.js');
    const out = await renderMindmap(input);
    return { value: out, transfer: out.png ? ownBuffer(out.png) : [] };
  },

  async 'write-deck'(input: ComposeDeckInput): Promise<Done<Awaited<ReturnType<typeof composeDeck>>>> {
    const { composeDeck } = await import('../slides/compose.js');
    const out = await composeDeck(input);
    return { value: out, transfer: ownBuffer(out.pptx) };
  },

  async 'social-seed'(_input: Record<string, never>): Promise<Done<ReturnType<typeof generateSeed>>> {
    const { generateSeed } = await import('../../providers/social/seed.js');
    return { value: generateSeed() };
  },

  async 'shape-html'(input: {
    html: string;
    url: string;
    options: ShapeOptions;
  }): Promise<Done<ReturnType<typeof shapeHtml>>> {
    const { shapeHtml } = await import('../extract/shape-html.js');
    return { value: shapeHtml(input.html, input.url, input.options) };
  },
};

export type JobName = keyof typeof jobs;
export type JobInput<K extends JobName> = Parameters<(typeof jobs)[K]>[0];
export type JobOutput<K extends JobName> = Awaited<ReturnType<(typeof jobs)[K]>>['value'];

/** A buffer can be moved only when it owns its whole memory (not a slice of Node's pool). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}
