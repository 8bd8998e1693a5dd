import { chunkText, type TextChunk } from '../retrieval/chunker.js';
import { htmlToMarkdown } from './html.js';

export type DocumentKind = 'pdf' | 'docx' | 'pptx';

export interface DocumentText {
  title: string | null;
  text: string;
  /** Chunks that keep page or slide numbers. */
  chunks?: TextChunk[];
}

/**
 * The text of a PDF, DOCX or PPTX file, one well-kept library per format. Parsing is CPU-bound, so
 * convert.ts runs this in a CPU worker.
 */
export async function extractDocument(kind: DocumentKind, data: Buffer): Promise<DocumentText> {
  switch (kind) {
    case 'pdf': {
      const { pdfPages } = await import('./pdf.js');
      const { title, pages } = await pdfPages(data);
      const chunks: TextChunk[] = [];
      pages.forEach((p, i) => chunks.push(...chunkText(p, { page: i + 1, startOrdinal: chunks.length })));
      return { title, text: pages.join('\n\n'), chunks };
    }
    case 'docx': {
      const mammoth = (await import('mammoth')).default;
      const { value: html } = await mammoth.convertToHtml({ buffer: data });
      const markdown = htmlToMarkdown(html);
      const h1 = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? null;
      return { title: h1, text: markdown };
    }
    case 'pptx': {
      const { pptxSlides } = await import('./pptx.js');
      const slides = await pptxSlides(data);
      // One chunk per text paragraph of each slide: ppt-retrieve ranks the chunks of one slide.
      const chunks: TextChunk[] = [];
      slides.forEach((paras, i) => paras.forEach((p) => chunks.push({ ordinal: chunks.length, page: i + 1, title: paras[0] ?? '', content: p })));
      const text = slides.map((paras, i) => `## Slide ${i + 1}${paras[0] ? `: ${paras[0]}` : ''}\n\n${paras.slice(1).join('\n\n')}`).join('\n\n');
      return { title: slides[0]?.[0] ?? null, text, chunks };
    }
  }
}
