import path from 'node:path';
import { chunkText, type TextChunk } from '../retrieval/chunker.js';
import { extractHtml, htmlToMarkdown } from './html.js';

export type FileKind = 'markdown' | 'text' | 'html' | 'pdf' | 'docx' | 'pptx' | 'image' | 'other';

export interface ConvertedFile {
  kind: FileKind;
  /** The type the content operation reports (spec 2.4 names text, document, image, ...). */
  contentType: string;
  title: string | null;
  /** Markdown or plain text; null when the format carries no text (images, unknown binaries). */
  text: string | null;
  /** Chunks that keep page or slide numbers, for formats that have pages. */
  chunks?: TextChunk[];
}

const EXT: Record<string, FileKind> = {
  '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.text': 'text', '.csv': 'text', '.json': 'text', '.log': 'text',
  '.html': 'html', '.htm': 'html', '.xhtml': 'html', '.pdf': 'pdf', '.docx': 'docx', '.pptx': 'pptx',
  '.png': 'image', '.jpg': 'image', '.jpeg': 'image', '.gif': 'image', '.webp': 'image', '.svg': 'image', '.bmp': 'image',
};

const MIME: Record<string, FileKind> = {
  'text/markdown': 'markdown', 'text/x-markdown': 'markdown', 'text/plain': 'text', 'text/csv': 'text', 'application/json': 'text',
  'text/html': 'html', 'application/xhtml+xml': 'html', 'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/** The format by extension first (browsers and curl often send octet-stream), then by MIME type and magic bytes. */
export function kindOf(fileName: string, mimeType: string | undefined, data: Buffer): FileKind {
  const byExt = EXT[path.extname(fileName).toLowerCase()];
  if (byExt) return byExt;
  const mime = (mimeType ?? '').split(';')[0].trim().toLowerCase();
  if (MIME[mime]) return MIME[mime];
  if (mime.startsWith('image/')) return 'image';
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (mime.startsWith('text/')) return 'text';
  return 'other';
}

const CONTENT_TYPE: Record<FileKind, string> = {
  markdown: 'text', text: 'text', html: 'document', pdf: 'document', docx: 'document', pptx: 'ai_ppt', image: 'image', other: 'file',
};

function utf8(data: Buffer): string {
  return data.toString('utf8').replace(/^\uFEFF/, '');
}

/** A file's text in the most useful form for reading and retrieval, one well-kept library per format. */
export async function convertFile(data: Buffer, file: { fileName: string; mimeType?: string }): Promise<ConvertedFile> {
  const kind = kindOf(file.fileName, file.mimeType, data);
  const contentType = CONTENT_TYPE[kind];
  switch (kind) {
    case 'markdown':
    case 'text': {
      const text = utf8(data);
      const h1 = kind === 'markdown' ? /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null : null;
      return { kind, contentType, title: h1, text };
    }
    case 'html': {
      const page = extractHtml(utf8(data));
      return { kind, contentType, title: page.title || null, text: page.markdown };
    }
    case 'pdf': {
      const { pdfPages } = await import('./pdf.js');
      const { title, pages } = await pdfPages(data);
      const chunks: TextChunk[] = [];
      pages.forEach((p, i) => chunks.push(...chunkText(p, { page: i + 1, startOrdinal: chunks.length })));
      return { kind, contentType, title, text: pages.join('\n\n'), chunks };
    }
    case 'docx': {
      const mammoth = (await import('mammoth')).default;
      const { value: html } = await mammoth.convertToHtml({ buffer: data });
      const markdown = htmlToMarkdown(html);
      const h1 = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? null;
      return { kind, contentType, title: h1, text: markdown };
    }
    case 'pptx': {
      const { pptxSlides } = await import('./pptx.js');
      const slides = await pptxSlides(data);
      // One chunk per text paragraph of each slide: ppt-retrieve ranks the chunks of one slide.
      const chunks: TextChunk[] = [];
      slides.forEach((paras, i) => paras.forEach((p) => chunks.push({ ordinal: chunks.length, page: i + 1, title: paras[0] ?? '', content: p })));
      const text = slides.map((paras, i) => `## Slide ${i + 1}${paras[0] ? `: ${paras[0]}` : ''}\n\n${paras.slice(1).join('\n\n')}`).join('\n\n');
      return { kind, contentType, title: slides[0]?.[0] ?? null, text, chunks };
    }
    case 'image':
    case 'other':
      return { kind, contentType, title: null, text: null };
  }
}
