import type { FetchPolicy } from '../../net/policy.js';
import { ExtractFailed, isHtml, loadPage } from './load-page.js';
import { shapeLoaded } from './extract-web.js';
import { convertFile } from './convert.js';
import { DocumentRefused } from './limits.js';
import { cleanText } from './boilerplate.js';

export interface FetchedPage {
  finalUrl: string;
  title: string;
  text: string;
  excerpt: string;
}

/** A failure the URL-add result reports as fail_reason. */
export class FetchFailed extends Error {
  /** A network failure, a timeout or a 5xx: the same fetch may work later. */
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/**
 * A page as LiveDoc text (URL add, project sites): the extraction engine's fast load through the
 * outbound fetch policy and its HTML shaping (Readability, Markdown); PDFs and plain text by their
 * converters. Redirects are followed and checked hop by hop; the body is cut at 15 MB; slow pages
 * fail with a reason, not a hang.
 */
export async function fetchPage(
  url: string,
  options: { policy: FetchPolicy; timeoutMs?: number; signal?: AbortSignal },
): Promise<FetchedPage> {
  try {
    const loaded = await loadPage(url, {
      policy: options.policy,
      mode: 'fast',
      timeoutMs: options.timeoutMs ?? 15_000,
      signal: options.signal,
      userAgent: 'facet-livedocs/1 (+local platform)',
      accept: 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5',
    });
    const asked = new URL(url);
    const fallbackTitle = decodeURIComponent(asked.pathname.split('/').filter(Boolean).pop() ?? asked.hostname);
    if (isHtml(loaded)) {
      const page = await shapeLoaded(loaded, { format: 'markdown', readability: 'article' }, options.signal);
      if (!page.content.trim()) throw new FetchFailed('no readable text on the page');
      return {
        finalUrl: loaded.finalUrl,
        title: page.title || fallbackTitle,
        text: cleanText(page.content),
        excerpt: page.excerpt,
      };
    }
    const type = loaded.contentType;
    const converted = await convertFile(loaded.body, { fileName: fallbackTitle, mimeType: type });
    if (converted.kind === 'image' || converted.text === null || !converted.text.trim())
      throw new FetchFailed(`no readable text in a ${type || 'binary'} response`);
    return { finalUrl: loaded.finalUrl, title: converted.title ?? fallbackTitle, text: converted.text, excerpt: '' };
  } catch (err) {
    if (err instanceof ExtractFailed) throw new FetchFailed(err.message, err.transient);
    if (err instanceof DocumentRefused) throw new FetchFailed(err.message);
    throw err;
  }
}
