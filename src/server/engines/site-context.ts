import { JobFailure } from '../jobs/queue.js';

const MAX_BYTES = 1024 * 1024;
const STOP = new Set(
  'that this with from have your will about there their what when which were been more than into them they then also only some other such just like over most very page site home menu click here html body'.split(' '),
);

export interface SiteContext {
  url: string;
  title: string;
  text: string;
  keywords: string[];
}

function htmlToText(html: string): { title: string; text: string } {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  const text = html
    .replace(/<(script|style|noscript|template)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return { title, text };
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
 * Fetches a site's page and keeps its text as context for the prompt. Server errors and network
 * failures are worth another attempt; a 4xx or a non-text answer is not.
 */
export async function fetchSiteContext(url: string, signal?: AbortSignal, timeoutMs = 15_000): Promise<SiteContext> {
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any(signals), redirect: 'follow', headers: { 'user-agent': 'facet-local/site-context', accept: 'text/html,text/plain;q=0.9,*/*;q=0.1' } });
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    const e = err as Error & { cause?: { code?: string } };
    throw new JobFailure(`could not fetch site ${url}: ${e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message)}`, { retryable: true });
  }
  if (res.status >= 500) throw new JobFailure(`site ${url} answered HTTP ${res.status}`, { retryable: true });
  if (!res.ok) throw new JobFailure(`site ${url} answered HTTP ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (type && !/text\/|html|xml|json/i.test(type)) throw new JobFailure(`site ${url} is ${type}, not a text page`);
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    chunks.push(value);
    if (size >= MAX_BYTES) {
      await reader.cancel();
      break;
    }
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  const { title, text } = /html/i.test(type) || /<html/i.test(raw) ? htmlToText(raw) : { title: '', text: raw.replace(/\s+/g, ' ').trim() };
  return { url, title, text, keywords: keywordsOf(`${title} ${text}`) };
}
