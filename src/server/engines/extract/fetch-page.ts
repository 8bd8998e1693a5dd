import { OutboundFetchError } from '../../net/errors.js';
import type { FetchPolicy } from '../../net/policy.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { extractHtml } from './html.js';
import { convertFile } from './convert.js';

export interface FetchedPage {
  finalUrl: string;
  title: string;
  text: string;
  excerpt: string;
}

const MAX_BYTES = 15 * 1024 * 1024;

/** A failure the URL-add result reports as fail_reason. */
export class FetchFailed extends Error {
  /** A network failure, a timeout or a 5xx: the same fetch may work later. */
  constructor(message: string, readonly transient = false) {
    super(message);
  }
}

/**
 * Fetches one page through the outbound fetch policy and extracts its main text: HTML through
 * Readability, PDFs and plain text by their converters. Redirects are followed and checked hop by
 * hop; the body is streamed and cut at 15 MB; slow pages fail with a reason, not a hang.
 */
export async function fetchPage(url: string, options: { policy: FetchPolicy; timeoutMs?: number; signal?: AbortSignal }): Promise<FetchedPage> {
  let res;
  try {
    res = await safeFetch(url, {
      policy: options.policy,
      maxBytes: MAX_BYTES,
      timeoutMs: options.timeoutMs ?? 15_000,
      signal: options.signal,
      headers: { 'user-agent': 'facet-livedocs/1 (+local platform)', accept: 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5' },
    });
  } catch (err) {
    if (err instanceof OutboundFetchError) throw new FetchFailed(err.message, err.transient);
    throw err;
  }
  if (res.status < 200 || res.status > 299) throw new FetchFailed(`the page answered HTTP ${res.status}`, res.status >= 500);
  const body = res.body;
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const asked = new URL(url);
  const fallbackTitle = decodeURIComponent(asked.pathname.split('/').filter(Boolean).pop() ?? asked.hostname);
  if (type === 'text/html' || type === 'application/xhtml+xml' || (!type && /<html/i.test(body.subarray(0, 2000).toString()))) {
    const page = extractHtml(body.toString('utf8'), fallbackTitle);
    if (!page.markdown.trim()) throw new FetchFailed('no readable text on the page');
    return { finalUrl: res.url, title: page.title, text: page.markdown, excerpt: page.excerpt };
  }
  const converted = await convertFile(body, { fileName: fallbackTitle, mimeType: type });
  if (converted.kind === 'image' || converted.text === null || !converted.text.trim()) throw new FetchFailed(`no readable text in a ${type || 'binary'} response`);
  return { finalUrl: res.url, title: converted.title ?? fallbackTitle, text: converted.text, excerpt: '' };
}
