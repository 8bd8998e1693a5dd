import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

export interface ExtractedHtml {
  title: string;
  /** Markdown of the main content: headings survive, so chunks keep their section titles. */
  markdown: string;
  excerpt: string;
}

/**
 * Main content of an HTML page: Readability picks the article, Turndown writes it as Markdown. A page
 * Readability cannot make sense of (too short, no article) falls back to its whole body.
 */
export function extractHtml(html: string, fallbackTitle = ''): ExtractedHtml {
  const { document } = parseHTML(html);
  const docTitle = (document.querySelector('title')?.textContent ?? '').trim();
  const h1 = (document.querySelector('h1')?.textContent ?? '').trim();
  for (const el of document.querySelectorAll('script, style, noscript, template')) el.remove();
  const bodyHtml = document.body?.innerHTML ?? html;
  let contentHtml = bodyHtml;
  let title = docTitle || h1;
  let excerpt = '';
  try {
    const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
    if (article?.content && (article.textContent ?? '').trim().length > 0) {
      contentHtml = article.content;
      title = title || (article.title ?? '').trim();
      excerpt = (article.excerpt ?? '').trim();
    }
  } catch {
    // Readability throws on some malformed documents; the whole body is still good text.
  }
  return { title: title || fallbackTitle, markdown: htmlToMarkdown(contentHtml), excerpt };
}

/** HTML that is all content (a converted document) straight to Markdown, headings kept. */
export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  return turndown.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}
