import { fetch } from 'undici';
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
 * Fetches one page and extracts its main text: HTML through Readability, PDFs and plain text by
 * their converters. Redirects are followed; slow or huge pages fail with a reason, not a hang.
 */
export async function fetchPage(url: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<FetchedPage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FetchFailed('not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FetchFailed('only http and https URLs can be added');
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 15_000), ...(options.signal ? [options.signal] : [])]);
  let res;
  try {
    res = await fetch(parsed, { redirect: 'follow', signal, headers: { 'user-agent': 'facet-livedocs/1 (+local platform)', accept: 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5' } });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (options.signal?.aborted) throw options.signal.reason ?? err;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new FetchFailed('the page did not answer in time', true);
    throw new FetchFailed(`cannot fetch the page: ${e.cause?.code ?? e.message}`, true);
  }
  if (!res.ok) throw new FetchFailed(`the page answered HTTP ${res.status}`, res.status >= 500);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_BYTES) throw new FetchFailed(`the page is larger than ${MAX_BYTES / 1024 / 1024} MB`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_BYTES) throw new FetchFailed(`the page is larger than ${MAX_BYTES / 1024 / 1024} MB`);
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const fallbackTitle = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? parsed.hostname);
  if (type === 'text/html' || type === 'application/xhtml+xml' || (!type && /<html/i.test(body.subarray(0, 2000).toString()))) {
    const page = extractHtml(body.toString('utf8'), fallbackTitle);
    if (!page.markdown.trim()) throw new FetchFailed('no readable text on the page');
    return { finalUrl: res.url || url, title: page.title, text: page.markdown, excerpt: page.excerpt };
  }
  const converted = await convertFile(body, { fileName: fallbackTitle, mimeType: type });
  if (converted.kind === 'image' || converted.text === null || !converted.text.trim()) throw new FetchFailed(`no readable text in a ${type || 'binary'} response`);
  return { finalUrl: res.url || url, title: converted.title ?? fallbackTitle, text: converted.text, excerpt: '' };
}
