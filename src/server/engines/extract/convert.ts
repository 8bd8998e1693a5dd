import path from 'node:path';
import type { TextChunk } from '../retrieval/chunker.js';
import { runCpuJob } from '../workers/index.js';
import { unguard } from './limits.js';
import { checkDocumentText } from './markdown-shape.js';
import { markdownTitle } from '../../text/markdown-tree.js';

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
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.csv': 'text',
  '.json': 'text',
  '.log': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.pptx': 'pptx',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.gif': 'image',
  '.webp': 'image',
  '.svg': 'image',
  '.bmp': 'image',
};

const MIME: Record<string, FileKind> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/csv': 'text',
  'application/json': 'text',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
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
  markdown: 'text',
  text: 'text',
  html: 'document',
  pdf: 'document',
  docx: 'document',
  pptx: 'ai_ppt',
  image: 'image',
  other: 'file',
};

/** A file's UTF-8 text, without its byte-order mark and NUL bytes (no text, and PostgreSQL stores none). */
function utf8(data: Buffer): string {
  return data
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/\u0000/g, '');
}

/**
 * A file's text in the most useful form for reading and retrieval, one well-kept library per format.
 * Parsing runs in a CPU worker; a file over DOCUMENT_LIMITS is refused (DocumentRefused).
 */
export async function convertFile(
  data: Buffer,
  file: { fileName: string; mimeType?: string; owner?: string },
): Promise<ConvertedFile> {
  // Whose work it is: the CPU pool takes one caller's documents in turn with everyone else's.
  const owner = file.owner;
  const kind = kindOf(file.fileName, file.mimeType, data);
  const contentType = CONTENT_TYPE[kind];
  switch (kind) {
    case 'markdown': {
      const text = utf8(data);
      checkDocumentText(text);
      return { kind, contentType, title: markdownTitle(text), text };
    }
    case 'text': {
      const plain = utf8(data);
      checkDocumentText(plain);
      // Its headings, lists and code found from the layout (text/plain-text.ts), as Markdown.
      const text = await runCpuJob('structure-text', { text: plain }, { owner });
      return { kind, contentType, title: null, text };
    }
    case 'html': {
      const page = unguard(await runCpuJob('extract-html', { html: utf8(data) }, { owner }));
      checkDocumentText(page.markdown);
      return { kind, contentType, title: page.title || null, text: page.markdown };
    }
    case 'pdf':
    case 'docx':
    case 'pptx': {
      // Parsing runs in a CPU worker; it gets a copy of the bytes (the caller keeps its buffer).
      const copy = new Uint8Array(data);
      const doc = unguard(
        await runCpuJob('extract-document', { kind, data: copy }, { transfer: [copy.buffer], owner }),
      );
      return { kind, contentType, ...doc };
    }
    case 'image':
    case 'other':
      return { kind, contentType, title: null, text: null };
  }
}
