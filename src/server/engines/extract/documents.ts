import JSZip from 'jszip';
import { chunkPages, type TextChunk } from '../retrieval/chunker.js';
import { documentMarkdown } from './html-markdown.js';
import { DOCX_STYLE_MAP, transformDocx } from './docx-options.js';
import { DOCUMENT_LIMITS, overLimit } from './limits.js';
import { checkDocumentText, checkMarkdownShape } from './markdown-shape.js';
import { readZip } from './zip-guard.js';

export type DocumentKind = 'pdf' | 'docx' | 'pptx';

export interface DocumentText {
  title: string | null;
  text: string;
  /** Chunks that keep page or slide numbers. */
  chunks?: TextChunk[];
}

/**
 * The text of a PDF, DOCX or PPTX file, one well-kept library per format, within DOCUMENT_LIMITS
 * (over one: DocumentRefused). Parsing is CPU-bound, so convert.ts runs this in a CPU worker.
 */
export async function extractDocument(kind: DocumentKind, data: Buffer): Promise<DocumentText> {
  switch (kind) {
    case 'pdf': {
      const { pdfPages } = await import('./pdf.js');
      const { title, pages } = await pdfPages(data);
      pages.forEach((p) => checkMarkdownShape(p));
      const chunks = chunkPages(pages);
      return { title, text: pages.join('\n\n'), chunks };
    }
    case 'docx': {
      const mammoth = (await import('mammoth')).default;
      const { value: html } = await mammoth.convertToHtml(
        { buffer: await checkedDocx(data) },
        { styleMap: DOCX_STYLE_MAP, transformDocument: transformDocx },
      );
      const markdown = documentMarkdown(html);
      checkDocumentText(markdown);
      // A heading with no text (a logo image) titles nothing: the file name does.
      const h1 = /^#[ \t]+(\S.*)$/m.exec(markdown)?.[1]?.trim() ?? null;
      return { title: h1, text: markdown };
    }
    case 'pptx': {
      const { pptxSlides } = await import('./pptx.js');
      const slides = await pptxSlides(data);
      // One chunk per text paragraph of each slide: ppt-retrieve ranks the chunks of one slide.
      const chunks: TextChunk[] = [];
      slides.forEach((paras, i) =>
        paras.forEach((p) => chunks.push({ ordinal: chunks.length, page: i + 1, title: paras[0] ?? '', content: p })),
      );
      const text = slides
        .map((paras, i) => `## Slide ${i + 1}${paras[0] ? `: ${paras[0]}` : ''}\n\n${paras.slice(1).join('\n\n')}`)
        .join('\n\n');
      checkDocumentText(text);
      return { title: slides[0]?.[0] ?? null, text, chunks };
    }
  }
}

/**
 * A DOCX for mammoth: its entries read within the ZIP limits and its paragraphs counted, then
 * stored again uncompressed, so mammoth (which unzips with JSZip, trusting the sizes) inflates
 * nothing: the sizes it reads are the ones checked here.
 */
async function checkedDocx(data: Buffer): Promise<Buffer> {
  const parts = await readZip(data, 'a .docx document');
  let paragraphs = 0;
  for (const [name, part] of parts) {
    if (!/^word\/[^/]+\.xml$/.test(name)) continue;
    paragraphs += part.toString('utf8').match(/<w:p[\s>/]/g)?.length ?? 0;
    if (paragraphs > DOCUMENT_LIMITS.docxMaxParagraphs)
      throw overLimit(
        'docxMaxParagraphs',
        `the document has more than ${DOCUMENT_LIMITS.docxMaxParagraphs.toLocaleString('en-US')} paragraphs`,
      );
  }
  const zip = new JSZip();
  for (const [name, part] of parts) zip.file(name, part);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}
