import type { AppContext } from '../context.js';
import * as repo from '../store/resources.repo.js';
import { fetchPage, FetchFailed } from '../engines/extract/fetch-page.js';
import { access } from './livedocs.service.js';
import { baseRow, createIndexed, snippetOf } from './resource-rows.js';

/** Web pages added to a LiveDoc by their URLs, each fetched and extracted once. */

function normalizeUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.toString();
  } catch {
    return null;
  }
}

type UrlItem = string | { url: string; title?: string };

/** Web pages compared for "the same page again": the first this many of a LiveDoc. */
const SAME_PAGE_SCAN = 500;

/** A page's words without its link targets: the same page at another address resolves its relative links elsewhere. */
const pageKey = (text: string) =>
  text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/\s+/g, ' ')
    .trim();

/** The web page of the LiveDoc whose text is this page's (links aside), if one is. */
async function samePage(ctx: AppContext, livedocId: string, text: string): Promise<{ id: string } | undefined> {
  const key = pageKey(text);
  return (await repo.webTexts(ctx.db, livedocId, SAME_PAGE_SCAN)).find(
    (r) => r.text !== null && pageKey(r.text) === key,
  );
}

/**
 * Fetches and extracts each page (four at a time); one failure never fails the others. A URL
 * already in the LiveDoc, or repeated within the request, is reported as existed.
 */
export async function addUrls(ctx: AppContext, userId: string, livedocId: string, items: UrlItem[]) {
  await access(ctx, userId, livedocId, 'write');
  const work = items.map((item) =>
    typeof item === 'string' ? { url: item.trim(), title: undefined } : { url: item.url.trim(), title: item.title },
  );
  type Result = {
    url: string;
    status: 'success' | 'failed' | 'existed';
    fail_reason: string | null;
    resource_id: string;
  };
  const results = new Array<Result>(work.length);
  const firstOf = new Map<string, number>();
  const todo: number[] = [];
  work.forEach(({ url }, i) => {
    const normalized = normalizeUrl(url);
    if (!normalized)
      results[i] = { url, status: 'failed', fail_reason: 'not a valid http or https URL', resource_id: '' };
    else if (firstOf.has(normalized)) return;
    else {
      firstOf.set(normalized, i);
      todo.push(i);
    }
  });
  const addOne = async (i: number) => {
    const { url, title } = work[i];
    const normalized = normalizeUrl(url)!;
    const key = `url:${normalized}`;
    const existing = await repo.findByKey(ctx.db, livedocId, key);
    if (existing) return { url, status: 'existed', fail_reason: null, resource_id: existing.id } as Result;
    try {
      const page = await fetchPage(normalized, { policy: ctx.fetchPolicy });
      // The same page by another address (a redirect, a tracking parameter) is the one already added.
      const landed = normalizeUrl(page.finalUrl);
      const same =
        (landed && landed !== normalized ? await repo.findByKey(ctx.db, livedocId, `url:${landed}`) : undefined) ??
        (await samePage(ctx, livedocId, page.text));
      if (same) return { url, status: 'existed', fail_reason: null, resource_id: same.id } as Result;
      const row = baseRow(ctx, livedocId, {
        title: title || page.title || normalized,
        link: normalized,
        resource_type: 'web',
        source: 'url',
        content_type: 'document',
        resource_key: key,
        text: page.text,
        snippet: snippetOf(page.excerpt || page.text, 2000),
      });
      await createIndexed(ctx, row);
      return { url, status: 'success', fail_reason: null, resource_id: row.id } as Result;
    } catch (err) {
      const reason = err instanceof FetchFailed ? err.message : `extraction failed: ${(err as Error).message}`;
      return { url, status: 'failed', fail_reason: reason, resource_id: '' } as Result;
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, todo.length) }, async () => {
      while (next < todo.length) {
        const i = todo[next++];
        results[i] = await addOne(i);
      }
    }),
  );
  // Repeats within the request point at the first occurrence's resource.
  work.forEach(({ url }, i) => {
    if (results[i]) return;
    const first = results[firstOf.get(normalizeUrl(url)!)!];
    results[i] = { url, status: 'existed', fail_reason: null, resource_id: first.resource_id };
  });
  return results;
}
