import { DOCUMENT_LIMITS, overLimit } from './limits.js';
import { checkPdfStreams } from './pdf-streams.js';

/**
 * Text of each page of a PDF, through Mozilla's pdf.js (legacy build: runs on Node 20 without a
 * DOM), within DOCUMENT_LIMITS: its streams' inflated sizes checked first (pdf-streams.ts), its
 * page count read from the page tree before any page is, its text bounded as it grows.
 */
export async function pdfPages(data: Buffer): Promise<{ title: string | null; pages: string[] }> {
  checkPdfStreams(data);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    if (doc.numPages > DOCUMENT_LIMITS.pdfMaxPages) throw overLimit('pdfMaxPages', `the PDF has ${doc.numPages.toLocaleString('en-US')} pages`);
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : ' ');
        if (chars + text.length > DOCUMENT_LIMITS.textMaxChars) throw overLimit('textMaxChars', `the PDF's text runs past ${DOCUMENT_LIMITS.textMaxChars.toLocaleString('en-US')} characters (stopped at page ${n})`);
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').replace(/[ \t]{2,}/g, ' ').trim());
      chars += text.length;
      page.cleanup();
    }
    const meta = await doc.getMetadata().catch(() => null);
    const title = (meta?.info as { Title?: string } | undefined)?.Title?.trim() || null;
    return { title, pages };
  } finally {
    await doc.destroy();
  }
}
