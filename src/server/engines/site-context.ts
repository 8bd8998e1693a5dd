import { JobFailure } from '../jobs/queue.js';
import { FetchFailed, fetchPage } from './extract/fetch-page.js';
import type { FetchPolicy } from '../net/policy.js';

const STOP = new Set(
  'that this with from have your will about there their what when which were been more than into them they then also only some other such just like over most very page site home menu click here html body'.split(
    ' ',
  ),
);

export interface SiteContext {
  url: string;
  title: string;
  text: string;
  keywords: string[];
}

/** The most frequent content words, ties broken by first appearance: stable for the same page. */
export function keywordsOf(text: string, max = 6): string[] {
  const counts = new Map<string, number>();
  for (const w of text.toLowerCase().match(/\p{L}{4,}/gu) ?? []) {
    if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
}

/**
 * Fetches a site's page with the LiveDocs page reader (Readability for HTML, converters for PDF and
 * text) through the outbound fetch policy, and keeps its text as context for the prompt. Network
 * failures, timeouts and server errors are worth another attempt; anything else (a refused address
 * included) is not.
 */
export async function fetchSiteContext(
  url: string,
  policy: FetchPolicy,
  signal?: AbortSignal,
  timeoutMs = 15_000,
): Promise<SiteContext> {
  try {
    const page = await fetchPage(url, { policy, signal, timeoutMs });
    return { url, title: page.title, text: page.text, keywords: keywordsOf(`${page.title} ${page.text}`) };
  } catch (err) {
    if (err instanceof FetchFailed) throw new JobFailure(`site ${url}: ${err.message}`, { retryable: err.transient });
    throw err;
  }
}
