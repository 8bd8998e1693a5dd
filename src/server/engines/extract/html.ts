import { cleanText } from './boilerplate.js';
import { shapeHtml } from './shape-html.js';
import { DocumentRefused } from './limits.js';

export interface ExtractedHtml {
  title: string;
  /** Markdown of the main content: headings survive, so chunks keep their section titles. */
  markdown: string;
  excerpt: string;
}

/**
 * Main content of an HTML document as Markdown (LiveDoc URL adds, HTML uploads, project sites): the
 * platform's one HTML extraction (shape-html.ts) with Readability on, falling back to the cleaned
 * whole body when Readability keeps too little. A document over the HTML limits is refused
 * (DocumentRefused). CPU-bound: convert.ts runs it in a CPU worker ('extract-html').
 * Without a page URL (an uploaded file) links stay as written.
 */
export function extractHtml(html: string, fallbackTitle = '', pageUrl = ''): ExtractedHtml {
  const shaped = shapeHtml(html, pageUrl, { format: 'markdown', readability: 'article' });
  // Without a selector or strict mode shaping refuses only a document over the HTML limits.
  if (!shaped.ok)
    throw shaped.reason === 'too-complex'
      ? new DocumentRefused('PAYLOAD_TOO_LARGE', shaped.message, shaped.limit)
      : new Error(shaped.message);
  return {
    title: shaped.page.title || fallbackTitle,
    markdown: cleanText(shaped.page.content),
    excerpt: shaped.page.excerpt,
  };
}

export { documentMarkdown, htmlToMarkdown, withHeaderRows } from './html-markdown.js';
